// Bad input anywhere gives the documented exit code (apps/mimic/command.hpp: 2 bad command line, 3 bad
// input, 5 output not writable), a one-line error with the cause, and leaves no output file behind.
#include <gtest/gtest.h>

#include <algorithm>

#include "cli/run_mimic.hpp"

namespace mimic::test {
namespace {

void expect_contains(const std::string& text, const std::string& part, const RunResult& r) {
  EXPECT_NE(text.find(part), std::string::npos) << "'" << part << "' not in '" << text << "'\n"
                                                << r.describe();
}

// `mimic -q retarget <input> -o out/x.pos --report out/x.json` in `dir`: nothing may appear in out/.
RunResult retarget_into_out(const TempDir& dir, const std::string& input,
                            std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"-q", "retarget", input, "-o", "out/x.pos", "--report", "out/x.json"};
  args.insert(args.end(), extra.begin(), extra.end());
  RunResult r = run_mimic(args, dir.path());
  EXPECT_TRUE(list_dir(dir / "out").empty()) << "partial output: " << join(list_dir(dir / "out")) << "\n"
                                             << r.describe();
  return r;
}

TEST(CliBadInput, MissingInputFile) {
  TempDir dir;
  const RunResult r = retarget_into_out(dir, (dir / "no_such_clip.bvh").string());
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  const std::string line = single_error_line(r);
  expect_contains(line, (dir / "no_such_clip.bvh").string(), r);
  expect_contains(line, "cannot open", r);
}

TEST(CliBadInput, BvhTruncatedInTheMotionData) {
  TempDir dir;
  // boxing.bvh cut in the middle of a frame line.
  const std::string text = read_text(sample("data/mocap/boxing.bvh"));
  ASSERT_GT(text.size(), 30000u);
  write_text(dir / "cut.bvh", text.substr(0, 30000));
  const RunResult r = retarget_into_out(dir, "cut.bvh");
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  const std::string line = single_error_line(r);
  expect_contains(line, "cut.bvh:line ", r);
  expect_contains(line, "channel values", r);
}

TEST(CliBadInput, BvhTruncatedInTheHierarchy) {
  TempDir dir;
  const std::string text = read_text(sample("data/mocap/boxing.bvh"));
  const auto motion = text.find("MOTION");
  ASSERT_NE(motion, std::string::npos);
  const std::string cut = text.substr(0, motion / 2);
  write_text(dir / "cut.bvh", cut);
  const RunResult r = retarget_into_out(dir, "cut.bvh");
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  // The cut falls inside a joint's OFFSET line, the last (partial) line of the file.
  const auto last_line = std::count(cut.begin(), cut.end(), '\n') + 1;
  EXPECT_EQ(single_error_line(r), "[error] cut.bvh:line " + std::to_string(last_line) +
                                      ": expected an OFFSET coordinate, found end of file")
      << r.describe();
}

TEST(CliBadInput, GarbageBvh) {
  TempDir dir;
  write_text(dir / "garbage.bvh", "this is not a motion capture file\n\x01\x02\x03\n");
  const RunResult r = retarget_into_out(dir, "garbage.bvh");
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  const std::string line = single_error_line(r);
  expect_contains(line, "garbage.bvh:line 1", r);
  expect_contains(line, "HIERARCHY", r);
}

TEST(CliBadInput, GarbageC3d) {
  TempDir dir;
  write_text(dir / "garbage.c3d", std::string(600, '\x7f'));
  const RunResult r = retarget_into_out(dir, "garbage.c3d");
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_EQ(single_error_line(r),
            "[error] garbage.c3d:byte 1: expected the C3D key 0x50 in the second byte, found 0x7F: not a C3D "
            "file")
      << r.describe();
}

TEST(CliBadInput, UnknownPreset) {
  TempDir dir;
  const RunResult r =
      retarget_into_out(dir, sample("data/mocap/boxing.bvh").string(), {"--preset", "nosuch"});
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  expect_contains(single_error_line(r), "unknown preset 'nosuch'", r);
}

// A job YAML with outputs in out/ and `extra` appended.
std::string job_yaml(const std::string& extra) {
  return "job: retarget\n"
         "input: " +
         sample("data/mocap/boxing.bvh").string() +
         "\n"
         "output:\n"
         "  path: out/x.pos\n"
         "  report: out/x.json\n" +
         extra;
}

TEST(CliBadInput, JobYamlUnknownKeyNamesKeyAndLine) {
  TempDir dir;
  write_text(dir / "job.yaml", job_yaml("solver:\n  name: alm\n  max_iter: 10\n"));
  const RunResult r = run_mimic({"-q", "retarget", "--config", "job.yaml"}, dir.path());
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  const std::string line = single_error_line(r);
  expect_contains(line, "job.yaml:line 8: unknown key 'solver.max_iter'", r);
  expect_contains(line, "max_iterations", r);  // the suggestion
  EXPECT_FALSE(std::filesystem::exists(dir / "out")) << join(list_dir(dir / "out"));
}

TEST(CliBadInput, JobYamlValueOutOfRange) {
  TempDir dir;
  write_text(dir / "job.yaml", job_yaml("limits:\n  angle_factor: 1.5\n"));
  const RunResult r = run_mimic({"-q", "retarget", "--config", "job.yaml"}, dir.path());
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  expect_contains(single_error_line(r), "job.yaml:line 7: limits.angle_factor: 1.5 is above the maximum 1",
                  r);
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

TEST(CliBadInput, JobYamlOfAnotherKind) {
  TempDir dir;
  write_text(dir / "job.yaml", job_yaml(""));
  const RunResult r = run_mimic({"-q", "smooth", "--config", "job.yaml"}, dir.path());
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  expect_contains(single_error_line(r), "expected smooth for `mimic smooth`, found retarget", r);
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

// A missing job file is bad input (3) for every subcommand that takes --config, not a usage error.
TEST(CliBadInput, MissingJobYaml) {
  TempDir dir;
  for (const char* command : {"retarget", "smooth", "walk"}) {
    const RunResult r = run_mimic({"-q", command, "--config", "missing.yaml"}, dir.path());
    EXPECT_EQ(r.exit_code, 3) << r.describe();
    EXPECT_EQ(single_error_line(r), "[error] missing.yaml: cannot open the file (does it exist?)")
        << r.describe();
  }
  EXPECT_TRUE(list_dir(dir.path()).empty()) << join(list_dir(dir.path()));
}

TEST(CliBadInput, CheckRejectsNanInPos) {
  TempDir dir;
  // Three samples of a standing motion, a NaN in the second line.
  std::string line = "0";
  for (int j = 0; j < 30; ++j) line += " 0";
  std::string text = line + "\n0.005 0 nan";
  for (int j = 2; j < 30; ++j) text += " 0";
  text += "\n0.01" + line.substr(1) + "\n";
  write_text(dir / "nan.pos", text);
  const RunResult r = run_mimic({"-q", "check", "nan.pos", "--report", "out/report.json"}, dir.path());
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  expect_contains(single_error_line(r), "nan.pos:line 2: expected a finite number as field 3, found 'nan'",
                  r);
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

TEST(CliBadInput, CheckMissingMotion) {
  TempDir dir;
  const RunResult r = run_mimic({"-q", "check", "nothing.pos", "--report", "out/r.json"}, dir.path());
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_EQ(single_error_line(r), "[error] nothing.pos: cannot open the file (does it exist?)")
      << r.describe();
  EXPECT_TRUE(list_dir(dir.path()).empty()) << join(list_dir(dir.path()));
}

// `mimic smooth` on a malformed planned motion (these used to be tests of io::read_motion alone, which
// cannot show the command's exit code, its one-line message or that it leaves nothing behind). No job
// file: the reader fails before any solving, so the robot and the solver settings play no part.

// A .pos line of `time` and 30 joint values, the second field replaced by `second` when given.
std::string pos_line(const std::string& time, const std::string& second = "0") {
  std::string line = time + " " + second;
  for (int j = 1; j < 30; ++j) line += " 0";
  return line + "\n";
}

// `mimic -q smooth <pos> -o out/x.pos --report out/x.json` in `dir`: exit code 3, and neither out/ nor the
// default output beside the input (X.smoothed.pos) may appear: the folder holds only `inputs` afterwards.
RunResult smooth_bad_input(const TempDir& dir, const std::string& pos,
                           const std::vector<std::string>& inputs) {
  RunResult r = run_mimic({"-q", "smooth", pos, "-o", "out/x.pos", "--report", "out/x.json"}, dir.path());
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_EQ(list_dir(dir.path()), inputs) << "output written for bad input\n" << r.describe();
  EXPECT_EQ(r.out, "") << r.describe();
  return r;
}

TEST(CliBadInput, SmoothMissingPos) {
  TempDir dir;
  const RunResult r = smooth_bad_input(dir, "planned.pos", {});
  EXPECT_EQ(single_error_line(r), "[error] planned.pos: cannot open the file (does it exist?)")
      << r.describe();
}

TEST(CliBadInput, SmoothNanInPosNamesFileLineAndField) {
  TempDir dir;
  write_text(dir / "planned.pos", pos_line("0") + pos_line("0.005") + pos_line("0.01", "nan"));
  const RunResult r = smooth_bad_input(dir, "planned.pos", {"planned.pos"});
  EXPECT_EQ(single_error_line(r),
            "[error] planned.pos:line 3: expected a finite number as field 2, found 'nan'")
      << r.describe();
}

TEST(CliBadInput, SmoothWaistTimesDisagreeingWithPos) {
  TempDir dir;
  write_text(dir / "planned.pos", pos_line("0") + pos_line("0.005") + pos_line("0.01"));
  // The third waist sample is 10 ms late: 0.02 where the .pos says 0.01.
  write_text(dir / "planned.waist", "0 0 0 0.6 0 0 0\n0.005 0 0 0.6 0 0 0\n0.02 0 0 0.6 0 0 0\n");
  const RunResult r = smooth_bad_input(dir, "planned.pos", {"planned.pos", "planned.waist"});
  EXPECT_EQ(single_error_line(r),
            "[error] planned.waist:line 3: time 0.02 differs from planned.pos's 0.01 for sample 3; every "
            "file of a motion needs the same times")
      << r.describe();
}

// A .waist one sample short: the count, not a time, disagrees.
TEST(CliBadInput, SmoothWaistWithFewerSamplesThanPos) {
  TempDir dir;
  write_text(dir / "planned.pos", pos_line("0") + pos_line("0.005") + pos_line("0.01"));
  write_text(dir / "planned.waist", "0 0 0 0.6 0 0 0\n0.005 0 0 0.6 0 0 0\n");
  const RunResult r = smooth_bad_input(dir, "planned.pos", {"planned.pos", "planned.waist"});
  EXPECT_EQ(single_error_line(r),
            "[error] planned.waist: 2 samples, but planned.pos has 3; every file of a motion needs the same "
            "times")
      << r.describe();
}

TEST(CliBadInput, InfoUnknownFileType) {
  const RunResult r = run_mimic({"-q", "info", sample("README.md").string()});
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  expect_contains(single_error_line(r), "unknown file type '.md'", r);
}

// CLI11 errors: exit 2, a message on stderr, nothing run.
TEST(CliBadInput, BadCommandLineExits2) {
  TempDir dir;
  const std::string bvh = sample("data/mocap/boxing.bvh").string();
  const std::vector<std::vector<std::string>> cases = {
      {},                                                             // no subcommand
      {"frobnicate"},                                                 // unknown subcommand
      {"retarget", bvh, "-o", "out/x.pos", "--bogus"},                // unknown option
      {"retarget", bvh, "-o", "out/x.pos", "--columns", "31"},        // value not allowed
      {"retarget", bvh, "-o", "out/x.pos", "--sigma", "-1"},          // negative weight
      {"retarget", bvh, "-o", "out/x.pos", "--torque-weight", "-1"},  // negative weight
      {"retarget", bvh, "-o", "out/x.pos", "--angle-factor", "2"},    // factor out of (0, 1]
      {"retarget", bvh, "-o"},                                        // option without its value
      {"check"},                                                      // missing positional argument
      {"plot", "x.pos", "--format", "gif"},                           // not png / svg
      {"batch"},                                                      // no job
  };
  for (const auto& args : cases) {
    const RunResult r = run_mimic(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_FALSE(r.err.empty()) << r.describe();
  }
  EXPECT_TRUE(list_dir(dir.path()).empty()) << join(list_dir(dir.path()));
}

// Bounds that are the robot's (its description: joint_order, extra_columns), checked once the job names the
// robot: still a bad command line (exit 2), one line naming the option and the values the robot allows.
TEST(CliBadInput, RobotBoundedOptionsNameTheAllowedValues) {
  TempDir dir;
  const std::string bvh = sample("data/mocap/boxing.bvh").string();
  const std::string steps = sample("config/walk/bar_steps.yaml").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"-q", "retarget", bvh, "-o", "out/x.pos", "--columns", "31"},
       "[error] --columns: expected 30 or 40 (the robot's joints, or with its extra columns), found 31"},
      {{"-q", "walk", steps, "-o", "out/w.pos", "--columns", "41"},
       "[error] --columns: expected 30 or 40 (the robot's joints, or with its extra columns), found 41"},
      {{"-q", "plot", "x.pos", "--max-joints", "31"},
       "[error] --max-joints: expected 1 to 30 (the robot's joints), found 31"},
      {{"-q", "plot", "x.pos", "--torque-joints", "40"},
       "[error] --torque-joints: expected 1 to 30 (the robot's joints), found 40"},
  };
  for (const auto& [args, message] : cases) {
    const RunResult r = run_mimic(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_EQ(single_error_line(r), message);
  }
  EXPECT_TRUE(list_dir(dir.path()).empty()) << join(list_dir(dir.path()));
}

// Root can write anywhere, so "cannot be written" is a path through a regular file or into /proc.
TEST(CliBadInput, UnwritableOutputExits5) {
  TempDir dir;
  write_text(dir / "a_file", "not a folder\n");
  const std::string bvh = sample("data/mocap/boxing.bvh").string();
  for (const std::string output : {"a_file/x.pos", "/proc/mimic_no_such_dir/x.pos"}) {
    const RunResult r = run_mimic({"-q", "retarget", bvh, "--kinematic-only", "-o", output}, dir.path());
    EXPECT_EQ(r.exit_code, 5) << r.describe();
    const std::string line = single_error_line(r);
    expect_contains(line, output, r);
    expect_contains(line, "cannot create its folder", r);
  }
  EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{"a_file"});
}

// An unwritable report must not leave the motion files behind (all outputs or none).
TEST(CliBadInput, UnwritableReportLeavesNoMotionFiles) {
  TempDir dir;
  write_text(dir / "a_file", "not a folder\n");
  const RunResult r = run_mimic({"-q", "retarget", sample("data/mocap/boxing.bvh").string(), "-o",
                                 "out/x.pos", "--report", "a_file/r.json"},
                                dir.path());
  EXPECT_EQ(r.exit_code, 5) << r.describe();
  expect_contains(single_error_line(r), "a_file/r.json", r);
  EXPECT_TRUE(list_dir(dir / "out").empty()) << "partial output: " << join(list_dir(dir / "out"));

  const RunResult walk = run_mimic({"-q", "walk", "--config", sample("config/walk/bar_walk.yaml").string(),
                                    "-o", "walk/w.pos", "--report", "a_file/r.json"},
                                   dir.path());
  EXPECT_EQ(walk.exit_code, 5) << walk.describe();
  EXPECT_TRUE(list_dir(dir / "walk").empty()) << "partial output: " << join(list_dir(dir / "walk"));
}

// An unwritable motion file must not leave the report behind either.
TEST(CliBadInput, UnwritableMotionLeavesNoReport) {
  TempDir dir;
  write_text(dir / "a_file", "not a folder\n");
  const RunResult r = run_mimic({"-q", "retarget", sample("data/mocap/boxing.bvh").string(),
                                 "--kinematic-only", "-o", "a_file/x.pos", "--report", "out/r.json"},
                                dir.path());
  EXPECT_EQ(r.exit_code, 5) << r.describe();
  EXPECT_TRUE(list_dir(dir / "out").empty()) << "partial output: " << join(list_dir(dir / "out"));
}

// X.zmp cannot be put in place (a folder has that name): X.pos and X.waist must not appear alone.
TEST(CliBadInput, OutputGroupIsAllOrNothing) {
  TempDir dir;
  std::filesystem::create_directories(dir / "out" / "x.zmp");
  const RunResult r = run_mimic(
      {"-q", "retarget", sample("data/mocap/boxing.bvh").string(), "--kinematic-only", "-o", "out/x.pos"},
      dir.path());
  EXPECT_EQ(r.exit_code, 5) << r.describe();
  EXPECT_EQ(list_dir(dir / "out"), std::vector<std::string>{"x.zmp"}) << "partial output";
}

}  // namespace
}  // namespace mimic::test
