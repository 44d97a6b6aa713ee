// `mimic walk` and `mimic smooth` on robots other than HRP-2 (issue 16), given by `--robot NAME --model
// URDF`: a short footstep plan per robot (two half strides, a few seconds of motion so that the smoothing
// stays a few seconds too) walked, smoothed and passed by `mimic check`; a step beyond the robot's legs is
// refused with the time and the advice to shorten the steps, and nothing is written. The smoothing and the
// checks take the walk's support phases from a job (its report's contacts), as HRP-2's walk does.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "cli/motion_checks.hpp"
#include "cli/run_mimic.hpp"
#include "support/shared_data.hpp"

namespace mimic::test {
namespace {

namespace fs = std::filesystem;

// Two half strides of `stride` / 2 from the nominal stance (the soles of the description's nominal_pose,
// as `mimic info --robot` prints them), 0.6 s swings, the waist lowered by `waist_drop` over the first.
std::string short_plan(double sole_x, double sole_y, double stride, double waist_drop) {
  const std::string x = std::to_string(sole_x), y = std::to_string(sole_y);
  const std::string half = std::to_string(0.5 * stride), drop = std::to_string(-waist_drop);
  std::string plan;
  plan += "initial_stance:\n";
  plan += "  right: { position: [" + x + ", -" + y + "], yaw: 0.0 }\n";
  plan += "  left: { position: [" + x + ", " + y + "], yaw: 0.0 }\n";
  plan += "timing: { single_support: 0.6, double_support: 0.2, step_height: 0.03 }\n";
  plan += "initial_hold: 1.0\nfinal_hold: 0.8\nsteps:\n";
  plan += "  - { foot: right, displacement: [" + half + ", 0.0], waist_height_change: " + drop + " }\n";
  plan += "  - { foot: left, displacement: [" + half + ", 0.0] }\n";
  return plan;
}

struct RobotCase {
  const char* name;
  const char* urdf;  // under ../shared
  double sole_x, sole_y;
  int joints;         // the description's joint_order
  double waist_drop;  // m the first step lowers the waist by (bends the knees for the stride)
};

std::vector<std::string> robot_args(const RobotCase& robot, const fs::path& urdf) {
  return {"--robot", robot.name, "--model", urdf.string()};
}

RunResult run_with(std::vector<std::string> args, const std::vector<std::string>& extra) {
  args.insert(args.end(), extra.begin(), extra.end());
  return run_mimic(args);
}

// The smooth job of the walk: its support phases from the walk's report, stated as the schedule made them
// (detection agrees but for the lift-off samples, config/jobs/walk_bar_smooth.yaml), no robot (the command
// line gives it).
std::string smooth_job(const fs::path& walk_report) {
  std::string yaml = "job: smooth\ninput: walk.pos\noutput: smooth.pos\ncontacts:\n";
  for (const YAML::Node& phase : YAML::LoadFile(walk_report.string())["contacts"]) {
    yaml += "  - { start: " + std::to_string(phase["start"].as<double>()) +
            ", end: " + std::to_string(phase["end"].as<double>()) +
            ", support: " + phase["support"].as<std::string>() + " }\n";
  }
  return yaml;
}

void expect_walk_smooth_check(const RobotCase& robot, const fs::path& urdf) {
  TempDir dir;
  const fs::path steps = dir / "steps.yaml", walk = dir / "walk.pos", smooth = dir / "smooth.pos",
                 job = dir / "job.yaml";
  write_text(steps, short_plan(robot.sole_x, robot.sole_y, 0.1, robot.waist_drop));
  const auto args = robot_args(robot, urdf);

  const RunResult w =
      run_with({"walk", steps.string(), "-o", walk.string(), "--report", (dir / "walk.json").string()}, args);
  ASSERT_EQ(w.exit_code, 0) << w.describe();
  // 1 s hold, 2 x (0.2 s transfer + 0.6 s swing), 0.2 s transfer, 0.8 s hold at 200 Hz.
  EXPECT_NE(w.out.find("2 steps, 3.6 s, 721 samples"), std::string::npos) << w.describe();
  // The robot's own joints per row (no HRP-2 30-column default).
  EXPECT_EQ(first_line_fields(walk), 1 + robot.joints) << walk;
  write_text(job, smooth_job(dir / "walk.json"));
  std::vector<std::string> with_job = args;
  with_job.insert(with_job.end(), {"--config", job.string()});
  expect_check_passes(walk, with_job);

  const RunResult s = run_with(
      {"smooth", walk.string(), "-o", smooth.string(), "--report", (dir / "smooth.json").string()}, with_job);
  ASSERT_EQ(s.exit_code, 0) << s.describe();
  EXPECT_EQ(list_dir(dir.path()),
            (std::vector<std::string>{"job.yaml", "smooth.json", "smooth.pos", "smooth.waist", "smooth.zmp",
                                      "steps.yaml", "walk.json", "walk.pos", "walk.waist", "walk.zmp"}));
  EXPECT_EQ(first_line_fields(smooth), 1 + robot.joints) << smooth;
  // The smoothing lowers the torque integral (it starts from the planned motion, which is feasible).
  const YAML::Node summary = YAML::LoadFile((dir / "smooth.json").string())["summary"];
  ASSERT_TRUE(summary.IsMap());
  EXPECT_LT(summary["torque_integral_after"].as<double>(), summary["torque_integral_before"].as<double>());
  expect_check_passes(smooth, with_job);
}

// The soles of each description's nominal pose (README "Robots", `mimic info --robot`).
const RobotCase kJvrc1{"jvrc1", "robots/jvrc1/urdf/jvrc1.urdf", 0.04437, 0.096, 32, 0.0};
const RobotCase kG1{"g1", "robots/g1/g1_29dof_rev_1_0.urdf", -0.026, 0.11851, 29, 0.03};

TEST(CliRobotWalk, Jvrc1WalksSmoothsAndPassesTheCheck) {
  MIMIC_REQUIRE_SHARED(urdf, kJvrc1.urdf);
  expect_walk_smooth_check(kJvrc1, urdf);
}

TEST(CliRobotWalk, G1WalksSmoothsAndPassesTheCheck) {
  MIMIC_REQUIRE_SHARED(urdf, kG1.urdf);
  expect_walk_smooth_check(kG1, urdf);
}

// `mimic batch` runs a walk job on G1 through the job's robot section (description and URDF): the .pos
// has G1's 29 joint columns.
TEST(CliRobotWalk, BatchWalksG1FromTheJobsRobot) {
  MIMIC_REQUIRE_SHARED(urdf, kG1.urdf);
  TempDir dir;
  write_text(dir / "steps.yaml", short_plan(kG1.sole_x, kG1.sole_y, 0.1, kG1.waist_drop));
  write_text(dir / "walk.yaml", "job: walk\ninput: steps.yaml\noutput: walk.pos\nrobot:\n  config: " +
                                    (source_dir() / "config" / "robots" / "g1.yaml").string() +
                                    "\n  model: " + urdf.string() + "\n");
  const RunResult r = run_mimic({"batch", "walk.yaml", "--log-dir", "logs"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.describe() << read_text(dir / "logs" / "walk.log");
  EXPECT_EQ(first_line_fields(dir / "walk.pos"), 1 + kG1.joints);
}

// A stride of 1.2 m is beyond G1's legs (0.63 m from hip to sole): exit code 4, one error naming the
// failing leg and the time, no file written but the plan.
TEST(CliRobotWalk, StepBeyondTheLegsIsRefused) {
  MIMIC_REQUIRE_SHARED(urdf, kG1.urdf);
  TempDir dir;
  const fs::path steps = dir / "steps.yaml";
  write_text(steps, short_plan(kG1.sole_x, kG1.sole_y, 1.2, kG1.waist_drop));
  const RunResult r =
      run_with({"walk", steps.string(), "-o", (dir / "walk.pos").string()}, robot_args(kG1, urdf));
  EXPECT_EQ(r.exit_code, 4) << r.describe();
  EXPECT_NE(r.err.find("shorten the steps"), std::string::npos) << r.describe();
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"steps.yaml"}));
}

}  // namespace
}  // namespace mimic::test
