#include "mimic/core/atomic_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mimic/core/error.hpp"

namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
  auto dir = fs::temp_directory_path() / ("mimic_test_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST(AtomicFile, WritesContent) {
  const auto dir = fresh_dir("write");
  mimic::write_file_atomically(dir / "a.txt", [](std::ostream& o) { o << "hello\n"; });
  EXPECT_EQ(slurp(dir / "a.txt"), "hello\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
}

TEST(AtomicFile, FailureLeavesNoFileAndKeepsOldOne) {
  const auto dir = fresh_dir("fail");
  mimic::write_file_atomically(dir / "a.txt", [](std::ostream& o) { o << "old"; });
  EXPECT_THROW(mimic::write_file_atomically(dir / "a.txt",
                                            [](std::ostream& o) {
                                              o << "partial";
                                              throw std::runtime_error("boom");
                                            }),
               std::runtime_error);
  EXPECT_EQ(slurp(dir / "a.txt"), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
}

TEST(AtomicFile, UncreatableDirectoryIsOutputError) {
  // /proc refuses new entries even to root.
  EXPECT_THROW(mimic::write_file_atomically("/proc/mimic_no_such_dir/x.pos", [](std::ostream& o) { o << 1; }),
               mimic::OutputError);
}

TEST(AtomicFile, GroupAppearsTogetherOrNotAtAll) {
  const auto dir = fresh_dir("group");
  {
    mimic::AtomicFileGroup group;
    group.add(dir / "x.pos", [](std::ostream& o) { o << "pos"; });
    group.add(dir / "x.waist", [](std::ostream& o) { o << "waist"; });
    // Not committed: nothing may remain.
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 0);
  mimic::AtomicFileGroup group;
  group.add(dir / "x.pos", [](std::ostream& o) { o << "pos"; });
  group.add(dir / "x.waist", [](std::ostream& o) { o << "waist"; });
  group.commit();
  EXPECT_EQ(slurp(dir / "x.pos"), "pos");
  EXPECT_EQ(slurp(dir / "x.waist"), "waist");
}

TEST(AtomicFile, CreatesTheMissingFolderAndRefusesAFileInTheWay) {
  using namespace mimic;
  const auto dir = fresh_dir("folders");
  write_file_atomically(dir / "a" / "b" / "out.txt", [](std::ostream& out) { out << "x"; });
  EXPECT_TRUE(fs::exists(dir / "a" / "b" / "out.txt"));
  // A regular file where a folder must be: an OutputError, and nothing written.
  EXPECT_THROW(
      write_file_atomically(dir / "a" / "b" / "out.txt" / "c.txt", [](std::ostream& out) { out << "x"; }),
      OutputError);
  fs::remove_all(dir);
}

// A commit that fails part-way (here the third target is a folder) puts the earlier targets back as they
// were: the old X.pos is restored, no new X.waist stays, no temporary or set-aside file remains.
TEST(AtomicFile, FailedCommitRestoresTheEarlierTargets) {
  const auto dir = fresh_dir("rollback");
  { std::ofstream(dir / "x.pos") << "old pos"; }
  fs::create_directories(dir / "x.zmp");
  mimic::AtomicFileGroup group;
  group.add(dir / "x.pos", [](std::ostream& o) { o << "new pos"; });
  group.add(dir / "x.waist", [](std::ostream& o) { o << "waist"; });
  group.add(dir / "x.zmp", [](std::ostream& o) { o << "zmp"; });
  EXPECT_THROW(group.commit(), mimic::OutputError);
  EXPECT_EQ(slurp(dir / "x.pos"), "old pos");
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"x.pos", "x.zmp"}));
  EXPECT_TRUE(fs::is_directory(dir / "x.zmp"));
  fs::remove_all(dir);
}
