// CSV motions (Unitree / LAFAN1 convention) through the commands: `retarget -o x.csv --rate 50` checked as
// CSV gives the .pos's verdict, a walk written and smoothed as CSV, the rate a CSV needs, and the output
// rules (no output replaces an input, a bad input leaves nothing).
#include <gtest/gtest.h>

#include "cli/motion_checks.hpp"
#include "cli/run_mimic.hpp"

namespace mimic::test {
namespace {

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(CliCsv, KinematicRetargetAsCsvChecksAsThePosDoes) {
  TempDir dir;
  const std::string clip = sample("data/mocap/boxing.bvh").string();
  const RunResult csv =
      run_mimic({"retarget", clip, "--kinematic-only", "-o", (dir / "x.csv").string(), "--rate", "50"});
  ASSERT_EQ(csv.exit_code, 0) << csv.describe();
  EXPECT_NE(csv.out.find("x.csv: "), std::string::npos) << csv.describe();
  EXPECT_NE(csv.out.find(" rows at 50 Hz (resampled from 200 Hz); base x y z, quaternion x y z w, 30 joints"),
            std::string::npos)
      << csv.describe();
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"x.csv"}));  // no .waist / .zmp beside it
  const auto lines = nonempty_lines(read_text(dir / "x.csv"));
  ASSERT_GT(lines.size(), 2u);
  EXPECT_EQ(lines[0].rfind("base_x,base_y,base_z,base_qx,base_qy,base_qz,base_qw,", 0), 0u);

  const RunResult pos = run_mimic({"retarget", clip, "--kinematic-only", "-o", (dir / "x.pos").string()});
  ASSERT_EQ(pos.exit_code, 0) << pos.describe();
  const RunResult check_pos = run_mimic({"check", (dir / "x.pos").string()});
  const RunResult check_csv = run_mimic({"check", (dir / "x.csv").string(), "--rate", "50"});
  EXPECT_EQ(check_csv.exit_code, check_pos.exit_code) << check_pos.describe() << check_csv.describe();
  EXPECT_EQ(check_csv.out.find("OK: every limit holds") == std::string::npos,
            check_pos.out.find("OK: every limit holds") == std::string::npos)
      << check_pos.describe() << check_csv.describe();

  // plot reads it too (data and script only: no gnuplot needed), into x.plots beside it.
  const RunResult plot = run_mimic({"plot", (dir / "x.csv").string(), "--rate", "50", "--data-only"});
  EXPECT_EQ(plot.exit_code, 0) << plot.describe();
  EXPECT_TRUE(std::filesystem::exists(dir / "x.plots" / "plot.gp")) << plot.describe();

  // Without a rate the CSV cannot be read: bad input (exit 3), one line naming the file and the option.
  for (const char* command : {"check", "plot"}) {
    const RunResult no_rate = run_mimic({command, (dir / "x.csv").string()});
    EXPECT_EQ(no_rate.exit_code, 3) << no_rate.describe();
    EXPECT_NE(single_error_line(no_rate).find(
                  "x.csv: a CSV motion carries no time; give its sample rate (--rate HZ"),
              std::string::npos)
        << no_rate.describe();
  }
}

TEST(CliCsv, WalkAndSmoothAsCsvInAndOut) {
  TempDir dir;
  const auto walk = dir / "walk.csv";
  const RunResult w =
      run_mimic({"walk", "--config", sample("config/walk/bar_walk.yaml").string(), "-o", walk.string()});
  ASSERT_EQ(w.exit_code, 0) << w.describe();
  EXPECT_NE(w.err.find("walk.csv: 1741 rows at 200 Hz; base x y z"), std::string::npos) << w.describe();
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"walk.csv"}));

  const std::vector<std::string> job = {"--config", sample("config/jobs/walk_bar_smooth.yaml").string()};
  const auto smoothed = dir / "smoothed.csv";
  const RunResult s = run_mimic(with({"smooth", walk.string(), "--rate", "200", "-o", smoothed.string(),
                                      "--report", (dir / "s.json").string()},
                                     job));
  ASSERT_EQ(s.exit_code, 0) << s.describe();
  EXPECT_NE(s.err.find("smoothed.csv: 1741 rows at 200 Hz"), std::string::npos) << s.describe();
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"s.json", "smoothed.csv", "walk.csv"}));
  expect_check_passes(smoothed, with({"--rate", "200"}, job));
}

TEST(CliCsv, NoOutputReplacesAnInput) {
  TempDir dir;
  const auto walk = dir / "w.csv";
  write_text(walk, "not read\n");
  const RunResult same = run_mimic({"smooth", walk.string(), "--rate", "200", "-o", walk.string()});
  EXPECT_EQ(same.exit_code, 2) << same.describe();
  EXPECT_NE(single_error_line(same).find("would overwrite the input"), std::string::npos) << same.describe();
  const RunResult report = run_mimic({"check", walk.string(), "--rate", "50", "--report", walk.string()});
  EXPECT_EQ(report.exit_code, 2) << report.describe();
  EXPECT_EQ(read_text(walk), "not read\n");
}

TEST(CliCsv, BadCsvLeavesNoOutput) {
  TempDir dir;
  const auto bad = dir / "bad.csv";
  write_text(bad, "base_x,base_y,base_z,base_qx,base_qy,base_qz,base_qw,NOT_A_JOINT\n0,0,0.6,0,0,0,1,0\n");
  const auto out = dir / "out.csv";
  const RunResult r = run_mimic(
      {"smooth", bad.string(), "--rate", "200", "-o", out.string(), "--report", (dir / "r.json").string()});
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_NE(single_error_line(r).find("bad.csv:line 1: column 8: unknown column 'NOT_A_JOINT'"),
            std::string::npos)
      << r.describe();
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"bad.csv"}));
}

TEST(CliCsv, JobRateKeyIsRangedAndRequiredForACsvInput) {
  TempDir dir;
  write_text(dir / "slow.yaml", "job: smooth\ninput: w.csv\noutput: o.csv\ncsv_rate: 0.5\n");
  const RunResult slow = run_mimic({"smooth", "--config", (dir / "slow.yaml").string()});
  EXPECT_EQ(slow.exit_code, 3) << slow.describe();
  EXPECT_NE(single_error_line(slow).find("slow.yaml:line 4: csv_rate: 0.5 Hz is below the minimum 1 Hz"),
            std::string::npos)
      << slow.describe();
  write_text(dir / "none.yaml", "job: smooth\ninput: w.csv\noutput: o.csv\n");
  const RunResult none = run_mimic({"smooth", "--config", (dir / "none.yaml").string()});
  EXPECT_EQ(none.exit_code, 3) << none.describe();
  EXPECT_NE(single_error_line(none).find("w.csv: a CSV motion carries no time"), std::string::npos)
      << none.describe();
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"none.yaml", "slow.yaml"}));
}

}  // namespace
}  // namespace mimic::test

namespace mimic::test {
namespace {

TEST(CliCsv, SavedReferencesAreNamedAfterTheCsvAndPlottedWithIt) {
  TempDir dir;
  const RunResult r = run_mimic({"retarget", sample("data/mocap/boxing.bvh").string(), "--kinematic-only", "-o",
                                 (dir / "x.csv").string(), "--save-reference"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(std::filesystem::exists(dir / "x.reference.pos")) << join(list_dir(dir.path()));
  EXPECT_TRUE(std::filesystem::exists(dir / "x.original.pos")) << join(list_dir(dir.path()));
  // At the motion's own rate (200 Hz, the default of a retarget's CSV).
  const RunResult plot = run_mimic({"plot", (dir / "x.csv").string(), "--rate", "200", "--data-only"});
  ASSERT_EQ(plot.exit_code, 0) << plot.describe();
  EXPECT_NE(plot.out.find("x, x.original, x.reference"), std::string::npos) << plot.describe();
}

}  // namespace
}  // namespace mimic::test
