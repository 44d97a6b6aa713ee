// `mimic view` on the command line: the page beside the motion by default, the retarget's reference found
// beside it, and every refusal with one error line, its exit code and nothing written.
#include <gtest/gtest.h>

#include <cstdlib>

#include "cli/run_mimic.hpp"

namespace mimic::test {
namespace {

namespace fs = std::filesystem;

// The shipped planned walk copied into `dir` as walk.pos / .waist / .zmp.
fs::path copy_walk(const TempDir& dir) {
  for (const char* ext : {".pos", ".waist", ".zmp"})
    fs::copy_file(sample(std::string("data/motions/walk_bar_planned") + ext),
                  dir.path() / (std::string("walk") + ext));
  return dir.path() / "walk.pos";
}

// Sets an environment variable for one test (ctest runs each test case in its own process).
struct ScopedEnv {
  ScopedEnv(const char* name, const std::string& value) : name_(name) { ::setenv(name, value.c_str(), 1); }
  ~ScopedEnv() { ::unsetenv(name_); }
  const char* name_;
};

TEST(ViewCli, WritesOnePageBesideTheMotion) {
  TempDir dir;
  const fs::path pos = copy_walk(dir);
  const RunResult r = run_mimic({"view", pos.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const fs::path html = dir.path() / "walk.html";
  ASSERT_TRUE(fs::is_regular_file(html)) << r.describe();
  const std::string page = read_text(html);
  // Self-contained: three.js inlined (no <script src=...>), every template marker filled.
  EXPECT_EQ(page.find("<script src"), std::string::npos);
  EXPECT_NE(page.find("REVISION=\"111\""), std::string::npos) << "three.js r111 (libjs-three) not inlined";
  EXPECT_EQ(page.find("/*MIMIC_"), std::string::npos);
  EXPECT_NE(page.find("var MIMIC_SCENE = {\"title\":\"walk.pos\""), std::string::npos);
  EXPECT_NE(r.out.find("wrote " + html.string()), std::string::npos) << r.out;
  // Nothing else is written.
  EXPECT_EQ(join(list_dir(dir.path())), "walk.html, walk.pos, walk.waist, walk.zmp");
}

TEST(ViewCli, TheFpsBoundsTheFrames) {
  TempDir dir;
  const fs::path pos = copy_walk(dir);
  const RunResult r =
      run_mimic({"view", pos.string(), "--fps", "10", "-o", (dir.path() / "slow.html").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  // 8.7 s of walk at 10 Hz: 88 frames (the last sample added); at 50 Hz 436.
  EXPECT_NE(r.out.find(": 88 frames over 8.70 s"), std::string::npos) << r.out;
}

TEST(ViewCli, AMissingMotionIsOneErrorLineAndNothingWritten) {
  TempDir dir;
  const RunResult r = run_mimic({"view", (dir.path() / "absent.pos").string()});
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_NE(single_error_line(r).find("absent.pos"), std::string::npos) << r.describe();
  EXPECT_TRUE(list_dir(dir.path()).empty()) << join(list_dir(dir.path()));
}

TEST(ViewCli, ThePageMayNotOverwriteAnInput) {
  TempDir dir;
  const fs::path pos = copy_walk(dir);
  const std::string before = read_text(pos);
  const RunResult r = run_mimic({"view", pos.string(), "-o", (dir.path() / "walk.waist").string()});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(single_error_line(r).find("would overwrite"), std::string::npos) << r.describe();
  EXPECT_EQ(read_text(pos), before);
  EXPECT_EQ(join(list_dir(dir.path())), "walk.pos, walk.waist, walk.zmp");
}

TEST(ViewCli, ABadFpsIsAUsageError) {
  TempDir dir;
  const fs::path pos = copy_walk(dir);
  const RunResult r = run_mimic({"view", pos.string(), "--fps", "0"});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_EQ(join(list_dir(dir.path())), "walk.pos, walk.waist, walk.zmp");
}

// A CSV motion (Unitree / LAFAN1 convention) is viewed at its --rate, as `check` reads it; without a rate
// it is one error line and nothing is written. The CSV is the shipped walk written at 50 Hz.
TEST(ViewCli, ACsvMotionIsViewedAtItsRate) {
  TempDir dir;
  const fs::path csv = dir.path() / "walk50.csv";
  const RunResult walk = run_mimic({"-q", "walk", "--config", sample("config/walk/bar_walk.yaml").string(),
                                    "-o", csv.string(), "--rate", "50"});
  ASSERT_EQ(walk.exit_code, 0) << walk.describe();
  const RunResult missing = run_mimic({"view", csv.string()});
  EXPECT_EQ(missing.exit_code, 3) << missing.describe();
  EXPECT_NE(single_error_line(missing).find("rate"), std::string::npos) << missing.describe();
  EXPECT_FALSE(fs::exists(dir.path() / "walk50.html"));
  const RunResult r = run_mimic({"view", csv.string(), "--rate", "50", "--fps", "10"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  // 8.7 s at 10 frames per second: 88 frames, as from the .pos.
  EXPECT_NE(r.out.find(": 88 frames over 8.70 s"), std::string::npos) << r.out;
  EXPECT_NE(read_text(dir.path() / "walk50.html").find("var MIMIC_SCENE = {\"title\":\"walk50.csv\""),
            std::string::npos);
}

TEST(ViewCli, MissingThreeJsNamesTheDebianPackage) {
  TempDir dir;
  const fs::path pos = copy_walk(dir);
  ScopedEnv env("MIMIC_THREE_JS", (dir.path() / "no-three.min.js").string());
  const RunResult r = run_mimic({"view", pos.string()});
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_NE(single_error_line(r).find("libjs-three"), std::string::npos) << r.describe();
  EXPECT_EQ(join(list_dir(dir.path())), "walk.pos, walk.waist, walk.zmp");
}

TEST(ViewCli, MissingChromiumNamesTheDebianPackageBeforeWritingAnything) {
  TempDir dir;
  const fs::path pos = copy_walk(dir);
  ScopedEnv env("MIMIC_CHROMIUM", (dir.path() / "no-chromium").string());
  const RunResult r = run_mimic({"view", pos.string(), "--strip"});
  EXPECT_EQ(r.exit_code, 5) << r.describe();
  EXPECT_NE(single_error_line(r).find("Debian package chromium"), std::string::npos) << r.describe();
  EXPECT_EQ(join(list_dir(dir.path())), "walk.pos, walk.waist, walk.zmp");
}

}  // namespace
}  // namespace mimic::test
