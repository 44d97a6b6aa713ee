// Issue 17 at the command line: outputs that name an input (or another output) are refused with exit code
// 2 before anything is read or written; out-of-range job values, absurd clip values and a motion sampled
// more coarsely than the knots are one-line errors with exit code 3 naming the file and the key or place.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/run_mimic.hpp"

namespace mimic::test {
namespace {

namespace fs = std::filesystem;

// Copies the shipped planned walk into `dir` as <stem>.pos / .waist / .zmp.
void copy_planned_walk(const TempDir& dir, const std::string& stem) {
  for (const char* extension : {".pos", ".waist", ".zmp"}) {
    fs::copy_file(sample(std::string("data/motions/walk_bar_planned") + extension), dir / (stem + extension));
  }
}

TEST(CliOutputPaths, CheckReportOverTheCheckedMotionIsRefused) {
  TempDir dir;
  copy_planned_walk(dir, "x");
  const std::string before = read_text(dir / "x.pos");
  for (const std::string& report :
       std::vector<std::string>{"x.pos", "./x.pos", "x.zmp", (dir / "x.waist").string()}) {
    const RunResult r = run_mimic({"-q", "check", "x.pos", "--report", report}, dir.path());
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    const std::string line = single_error_line(r);
    EXPECT_NE(line.find("the report (--report) '" + report + "' is the checked motion"), std::string::npos)
        << line;
    EXPECT_NE(line.find("would overwrite the input"), std::string::npos) << line;
  }
  EXPECT_EQ(read_text(dir / "x.pos"), before);
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"x.pos", "x.waist", "x.zmp"}));
}

TEST(CliOutputPaths, SmoothReportOverItsInputIsRefused) {
  TempDir dir;
  copy_planned_walk(dir, "s");
  const std::string before = read_text(dir / "s.pos");
  const RunResult r = run_mimic({"-q", "smooth", "s.pos", "-o", "s2.pos", "--report", "s.pos"}, dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_EQ(single_error_line(r),
            "[error] the report 's.pos' is the input motion (.pos) 's.pos': writing it would overwrite the "
            "input; choose another output path");
  EXPECT_EQ(read_text(dir / "s.pos"), before);
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"s.pos", "s.waist", "s.zmp"}));
  // The output motion over the input, through another spelling of the path.
  const RunResult same = run_mimic({"-q", "smooth", "s.pos", "-o", "./s.pos"}, dir.path());
  EXPECT_EQ(same.exit_code, 2) << same.describe();
  EXPECT_NE(single_error_line(same).find("the output motion (.pos) './s.pos' is the input motion (.pos)"),
            std::string::npos);
  EXPECT_EQ(read_text(dir / "s.pos"), before);
}

TEST(CliOutputPaths, RetargetReportOverAnOutputIsRefused) {
  TempDir dir;
  const std::string bvh = sample("data/mocap/boxing.bvh").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--report", "r.pos"}, "the report 'r.pos' is also the output motion (.pos) 'r.pos'"},
      {{"--report", "r.zmp"}, "the report 'r.zmp' is also the output motion (.zmp) 'r.zmp'"},
      {{"--report", "r.reference.pos", "--save-reference"},
       "the reference motion (.pos) 'r.reference.pos' is also the report 'r.reference.pos'"},
      {{"--report", bvh}, "the report '" + bvh + "' is the input clip '" + bvh + "'"},
  };
  for (const auto& [extra, message] : cases) {
    std::vector<std::string> args = {"-q", "retarget", bvh, "--kinematic-only", "-o", "r.pos"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult r = run_mimic(args, dir.path());
    EXPECT_EQ(r.exit_code, 2) << r.describe();
    EXPECT_NE(single_error_line(r).find(message), std::string::npos) << r.describe();
    EXPECT_TRUE(list_dir(dir.path()).empty()) << join(list_dir(dir.path()));
  }
}

TEST(CliOutputPaths, JobReportOverTheJobFileIsRefused) {
  TempDir dir;
  write_text(dir / "job.yaml", "job: retarget\ninput: " + sample("data/mocap/boxing.bvh").string() +
                                   "\noutput: { path: out/x.pos, report: job.yaml }\n");
  const std::string before = read_text(dir / "job.yaml");
  const RunResult r = run_mimic({"-q", "retarget", "--config", "job.yaml"}, dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_NE(single_error_line(r).find("is the job file"), std::string::npos) << r.describe();
  EXPECT_EQ(read_text(dir / "job.yaml"), before);
  EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{"job.yaml"});
}

TEST(CliBoundary, JobKnotSpacingOutOfRangeNamesFileLineAndBound) {
  TempDir dir;
  for (const auto& [value, message] : std::vector<std::pair<std::string, std::string>>{
           {"1e-9", "trajectory.knot_spacing: 1e-09 s is below the minimum 0.01 s"},
           {"0.001", "trajectory.knot_spacing: 0.001 s is below the minimum 0.01 s"}}) {
    write_text(dir / "job.yaml", "job: retarget\ninput: " + sample("data/mocap/boxing.bvh").string() +
                                     "\noutput: out/x.pos\ntrajectory:\n  knot_spacing: " + value + "\n");
    const RunResult r = run_mimic({"-q", "retarget", "--config", "job.yaml"}, dir.path());
    EXPECT_EQ(r.exit_code, 3) << r.describe();
    EXPECT_EQ(single_error_line(r), "[error] job.yaml:line 5: " + message);
  }
  // The same bound for the command-line option, named by its key.
  const RunResult r = run_mimic({"-q", "retarget", sample("data/mocap/boxing.bvh").string(), "-o",
                                 "out/x.pos", "--velocity-scale", "1e-6"},
                                dir.path());
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_EQ(single_error_line(r), "[error] retarget.velocity_limit_scale: 1e-06 is below the minimum 0.1");
  EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{"job.yaml"});
}

// The shipped clip with its Frame Time replaced.
std::string boxing_with_frame_time(const std::string& frame_time) {
  std::string text = read_text(sample("data/mocap/boxing.bvh"));
  const std::size_t at = text.find("Frame Time:");
  const std::size_t end = text.find('\n', at);
  return text.replace(at, end - at, "Frame Time: " + frame_time);
}

TEST(CliBoundary, BvhFrameTimeOutOfRangeIsOneLine) {
  TempDir dir;
  for (const std::string frame_time : {"1e300", "1e-300", "0"}) {
    write_text(dir / "clip.bvh", boxing_with_frame_time(frame_time));
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"-q", "info", "clip.bvh"},
          std::vector<std::string>{"-q", "retarget", "clip.bvh", "-o", "out/x.pos", "--report",
                                   "out/x.json"}}) {
      const RunResult r = run_mimic(args, dir.path());
      EXPECT_EQ(r.exit_code, 3) << r.describe();
      const std::string line = single_error_line(r);
      EXPECT_NE(line.find("clip.bvh:line "), std::string::npos) << line;
      EXPECT_NE(line.find("Frame Time '" + frame_time + "' is outside [1e-04, 10] s"), std::string::npos)
          << line;
    }
  }
  EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{"clip.bvh"});
}

TEST(CliBoundary, BvhWithByteOrderMarkIsRead) {
  TempDir dir;
  write_text(dir / "clip.bvh", "\xEF\xBB\xBF" + read_text(sample("data/mocap/boxing.bvh")));
  const RunResult marked = run_mimic({"-q", "info", "clip.bvh"}, dir.path());
  EXPECT_EQ(marked.exit_code, 0) << marked.describe();
  fs::copy_file(sample("data/mocap/boxing.bvh"), dir / "plain.bvh");
  const RunResult plain = run_mimic({"-q", "info", "plain.bvh"}, dir.path());
  // The same description but for the file name.
  std::string expected = plain.out;
  expected.replace(expected.find("plain.bvh"), 9, "clip.bvh");
  EXPECT_EQ(marked.out, expected);
}

// `mimic smooth` of a motion whose samples are 2 s apart: the knots are 0.1 s apart, so the splines would
// be undetermined ("fit_spline: ... do not determine ..." before); the message names the file.
TEST(CliBoundary, SmoothOfASparselySampledMotionNamesTheFile) {
  TempDir dir;
  for (const char* extension : {".pos", ".waist", ".zmp"}) {
    std::ifstream in(sample(std::string("data/motions/walk_bar_planned") + extension));
    std::ostringstream kept;
    int k = 0;
    for (std::string line; std::getline(in, line); ++k)
      if (k % 400 == 0) kept << line << "\n";  // every 2 s
    write_text(dir / (std::string("sparse") + extension), kept.str());
  }
  const RunResult r =
      run_mimic({"-q", "smooth", "sparse.pos", "-o", "out/x.pos", "--report", "out/x.json"}, dir.path());
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_EQ(
      single_error_line(r),
      "[error] sparse.pos: samples 2 s apart (t = 0 .. 2 s) are farther apart than "
      "trajectory.knot_spacing (0.1 s): every knot interval needs a sample; resample the motion or raise "
      "the knot spacing");
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"sparse.pos", "sparse.waist", "sparse.zmp"}));
}

// 100,000 nested joints: `mimic info` reads them without recursion and prints bounded lines.
TEST(CliBoundary, InfoOnADeepHierarchyPrintsInBoundedSpace) {
  TempDir dir;
  constexpr int kDepth = 100'000;
  std::string text = "HIERARCHY\nROOT J0\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Yposition Zposition\n";
  for (int j = 1; j < kDepth; ++j) text += "JOINT J" + std::to_string(j) + "\n{\nOFFSET 0 0.01 0\n";
  text += "End Site\n{\nOFFSET 0 0.01 0\n}\n";
  for (int j = 0; j < kDepth; ++j) text += "}\n";
  write_text(dir / "deep.bvh", text + "MOTION\nFrames: 1\nFrame Time: 0.01\n0 0 0\n");
  const RunResult r = run_mimic({"-q", "info", "deep.bvh"}, dir.path());
  EXPECT_FALSE(r.signaled) << r.describe().substr(0, 2000);
  EXPECT_LT(r.out.size(), 100u * kDepth) << "exit " << r.exit_code;
}

// Two jobs of one batch writing the same motion: they would run at the same time. The second is refused
// (exit code 2 in the table, its message in the log), the first runs.
TEST(CliOutputPaths, BatchJobsWritingOneOutputAreRefused) {
  TempDir dir;
  const std::string job = "job: retarget\ninput: " + sample("data/mocap/boxing.bvh").string() +
                          "\noutput: out/x.pos\nretarget: { kinematic_only: true }\n";
  write_text(dir / "a.yaml", job);
  write_text(dir / "b.yaml", job);
  const RunResult r = run_mimic({"-q", "batch", "a.yaml", "b.yaml"}, dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.describe();  // at least one job invalid
  EXPECT_NE(r.out.find("INVALID"), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("the output of b.yaml (.pos) 'out/x.pos' is also the output of a.yaml (.pos)"),
            std::string::npos)
      << r.describe();
  EXPECT_TRUE(fs::exists(dir / "out" / "x.pos"));
}

// `mimic walk` with its report over the steps file.
TEST(CliOutputPaths, WalkReportOverTheStepsFileIsRefused) {
  TempDir dir;
  fs::copy_file(sample("config/walk/bar_steps.yaml"), dir / "steps.yaml");
  const std::string before = read_text(dir / "steps.yaml");
  const RunResult r =
      run_mimic({"-q", "walk", "steps.yaml", "-o", "w.pos", "--report", "steps.yaml"}, dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.describe();
  EXPECT_EQ(
      single_error_line(r),
      "[error] the report 'steps.yaml' is the steps file 'steps.yaml': writing it would overwrite the input; "
      "choose another output path");
  EXPECT_EQ(read_text(dir / "steps.yaml"), before);
  EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{"steps.yaml"});
}

}  // namespace
}  // namespace mimic::test
