// `mimic batch` on job YAMLs written into a temporary folder: parallel runs, one log per job, the summary
// table and CSV, a failing job that does not stop the others but makes the exit code non-zero, skipping
// of up-to-date jobs and --force (src/mimic/pipeline/batch.cpp).
#include <gtest/gtest.h>

#include <chrono>
#include <regex>

#include "cli/motion_checks.hpp"
#include "cli/run_mimic.hpp"

namespace mimic::test {
namespace {

namespace fs = std::filesystem;

// A cheap retarget job (kinematic only) writing out/<name>.pos; relative paths resolve against the YAML.
std::string retarget_job(const std::string& input, const std::string& name) {
  return "job: retarget\ninput: " + input + "\noutput:\n  path: out/" + name +
         ".pos\nretarget:\n  kinematic_only: true\n";
}

// The summary table's row of `yaml`: "<yaml>  <kind>  <status>  <exit> ...".
bool table_row(const std::string& out, const std::string& yaml, const std::string& status, int exit_code) {
  const std::regex row("(^|\\n)" + yaml + "\\s+retarget\\s+" + status + "\\s+" + std::to_string(exit_code) +
                       "\\s");
  return std::regex_search(out, row);
}

// CSV rows (header first) split on commas outside quotes.
std::vector<std::vector<std::string>> read_csv(const fs::path& path) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& line : nonempty_lines(read_text(path))) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (c == '"') {
        if (quoted && i + 1 < line.size() && line[i + 1] == '"') {
          fields.back() += '"';
          ++i;
        } else {
          quoted = !quoted;
        }
      } else if (c == ',' && !quoted) {
        fields.emplace_back();
      } else {
        fields.back() += c;
      }
    }
    rows.push_back(fields);
  }
  return rows;
}

std::string field(const std::vector<std::string>& header, const std::vector<std::string>& row,
                  const std::string& name) {
  for (std::size_t i = 0; i < header.size() && i < row.size(); ++i)
    if (header[i] == name) return row[i];
  return "<no column " + name + ">";
}

TEST(CliBatch, ParallelJobsLogsSummaryFailureSkipAndForce) {
  TempDir dir;
  write_text(dir / "broken.bvh", "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0\n");
  write_text(dir / "good.yaml", retarget_job(sample("data/mocap/boxing.bvh").string(), "good"));
  write_text(dir / "bad.yaml", retarget_job("broken.bvh", "bad"));

  const RunResult first =
      run_mimic({"batch", "good.yaml", "bad.yaml", "-j", "2", "--log-dir", "logs"}, dir.path());
  // A failing job makes the exit code non-zero (1), without stopping the good one.
  EXPECT_EQ(first.exit_code, 1) << first.describe();
  EXPECT_TRUE(table_row(first.out, "good.yaml", "ok", 0)) << first.describe();
  EXPECT_TRUE(table_row(first.out, "bad.yaml", "FAILED", 3)) << first.describe();
  EXPECT_NE(first.out.find("bad.yaml: [error] broken.bvh:line 5"), std::string::npos)
      << "the failure's cause under the table\n"
      << first.describe();
  // The job's metrics (from its JSON report) are columns of the table.
  EXPECT_NE(first.out.find("peak_velocity_ratio"), std::string::npos) << first.describe();

  // One log per job, the good job's report, the CSV.
  EXPECT_EQ(list_dir(dir / "logs"),
            (std::vector<std::string>{"bad.log", "batch.csv", "good.json", "good.log"}));
  EXPECT_NE(read_text(dir / "logs" / "good.log").find("wrote out/good.pos"), std::string::npos)
      << read_text(dir / "logs" / "good.log");
  EXPECT_NE(read_text(dir / "logs" / "bad.log").find("broken.bvh:line 5"), std::string::npos)
      << read_text(dir / "logs" / "bad.log");
  const auto csv = read_csv(dir / "logs" / "batch.csv");
  ASSERT_EQ(csv.size(), 3u) << read_text(dir / "logs" / "batch.csv");
  const auto& header = csv[0];
  EXPECT_EQ(field(header, csv[1], "job"), "good.yaml");
  EXPECT_EQ(field(header, csv[1], "status"), "ok");
  EXPECT_EQ(field(header, csv[1], "exit_code"), "0");
  EXPECT_EQ(field(header, csv[1], "log"), "logs/good.log");
  EXPECT_EQ(field(header, csv[1], "source_frames"), "960");
  EXPECT_EQ(field(header, csv[2], "job"), "bad.yaml");
  EXPECT_EQ(field(header, csv[2], "status"), "FAILED");
  EXPECT_EQ(field(header, csv[2], "exit_code"), "3");
  EXPECT_NE(field(header, csv[2], "message").find("broken.bvh"), std::string::npos);
  EXPECT_EQ(field(header, csv[2], "source_frames"), "");

  // The good job's outputs, and nothing of the failed one.
  EXPECT_EQ(list_dir(dir / "out"), (std::vector<std::string>{"good.pos", "good.waist", "good.zmp"}));
  expect_motion_files(dir / "out" / "good.pos");
  const auto written = fs::last_write_time(dir / "out" / "good.pos");

  // Again: the good job is up to date and skipped; the failed one runs (and fails) again.
  const RunResult second = run_mimic(
      {"batch", "good.yaml", "bad.yaml", "-j", "2", "--log-dir", "logs", "--csv", "again.csv"}, dir.path());
  EXPECT_EQ(second.exit_code, 1) << second.describe();
  EXPECT_TRUE(table_row(second.out, "good.yaml", "up-to-date", 0)) << second.describe();
  EXPECT_TRUE(table_row(second.out, "bad.yaml", "FAILED", 3)) << second.describe();
  EXPECT_EQ(fs::last_write_time(dir / "out" / "good.pos"), written) << "the skipped job ran";
  const auto again = read_csv(dir / "again.csv");
  ASSERT_EQ(again.size(), 3u);
  EXPECT_EQ(field(again[0], again[1], "status"), "up-to-date");

  // --force re-runs it; alone, the good job makes a zero exit code.
  const RunResult forced = run_mimic({"batch", "good.yaml", "--force", "--log-dir", "logs"}, dir.path());
  EXPECT_EQ(forced.exit_code, 0) << forced.describe();
  EXPECT_TRUE(table_row(forced.out, "good.yaml", "ok", 0)) << forced.describe();
  EXPECT_GT(fs::last_write_time(dir / "out" / "good.pos"), written) << "--force did not re-run the job";

  // An output older than the YAML makes the job stale: it runs without --force.
  const auto yaml_time = fs::last_write_time(dir / "good.yaml");
  fs::last_write_time(dir / "out" / "good.zmp", yaml_time - std::chrono::hours(1));
  const RunResult stale = run_mimic({"batch", "good.yaml", "--log-dir", "logs"}, dir.path());
  EXPECT_EQ(stale.exit_code, 0) << stale.describe();
  EXPECT_TRUE(table_row(stale.out, "good.yaml", "ok", 0)) << stale.describe();
  EXPECT_GT(fs::last_write_time(dir / "out" / "good.zmp"), yaml_time);
}

// A YAML that does not load is reported INVALID (exit 3 in the table) without being run; the others run.
TEST(CliBatch, InvalidYamlIsReportedAndOthersRun) {
  TempDir dir;
  write_text(dir / "good.yaml", retarget_job(sample("data/mocap/boxing.bvh").string(), "good"));
  write_text(dir / "typo.yaml",
             retarget_job(sample("data/mocap/boxing.bvh").string(), "typo") + "solvr: {}\n");
  const RunResult r = run_mimic({"-q", "batch", "typo.yaml", "good.yaml", "--log-dir", "logs"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_NE(r.out.find("typo.yaml: typo.yaml:line 7: unknown key 'solvr'"), std::string::npos)
      << r.describe();
  const auto csv = read_csv(dir / "logs" / "batch.csv");
  ASSERT_EQ(csv.size(), 3u);
  EXPECT_EQ(field(csv[0], csv[1], "status"), "INVALID");
  EXPECT_EQ(field(csv[0], csv[1], "exit_code"), "3");
  EXPECT_EQ(field(csv[0], csv[2], "status"), "ok");
  EXPECT_EQ(list_dir(dir / "out"), (std::vector<std::string>{"good.pos", "good.waist", "good.zmp"}));
  EXPECT_FALSE(fs::exists(dir / "logs" / "typo.log"));
}

}  // namespace
}  // namespace mimic::test
