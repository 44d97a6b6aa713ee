// Every numeric job key has a documented range (docs/job-yaml.md), checked with the key's file, line and
// unit; the issue-17 cases that used to end in internal errors, gigabytes or endless solves.
#include <gtest/gtest.h>

#include <functional>

#include "io/io_test_util.hpp"
#include "io/job_test_util.hpp"
#include "mimic/core/error.hpp"
#include "mimic/io/job.hpp"

namespace mimic::io {
namespace {

using test::error_of;
using test::kMinimal;

TEST(JobRanges, TheIssueCasesNameTheFileLineKeyAndBound) {
  EXPECT_EQ(error_of(kMinimal + "trajectory:\n  knot_spacing: 1e-9\n"),
            "job.yaml:line 5: trajectory.knot_spacing: 1e-09 s is below the minimum 0.01 s");
  EXPECT_EQ(error_of(kMinimal + "trajectory:\n  knot_spacing: 0.001\n"),
            "job.yaml:line 5: trajectory.knot_spacing: 0.001 s is below the minimum 0.01 s");
  EXPECT_EQ(error_of(kMinimal + "trajectory:\n  output_rate: 1e9\n"),
            "job.yaml:line 5: trajectory.output_rate: 1e+09 Hz is above the maximum 1000 Hz");
  EXPECT_EQ(error_of(kMinimal + "trajectory:\n  output_rate: 0.5\n"),
            "job.yaml:line 5: trajectory.output_rate: 0.5 Hz is below the minimum 10 Hz");
  EXPECT_EQ(error_of(kMinimal + "retarget:\n  velocity_limit_scale: 1e-6\n"),
            "job.yaml:line 5: retarget.velocity_limit_scale: 1e-06 is below the minimum 0.1");
  EXPECT_EQ(error_of(kMinimal + "payload:\n  frame: r_gripper\n  mass: 1\n  com: [2e9, 0, 0]\n"),
            "job.yaml:line 7: payload.com: 2e+09 m is above the maximum 3 m");
}

TEST(JobRanges, OtherKeys) {
  EXPECT_EQ(error_of(kMinimal + "trajectory: { knot_spacing: 2 }\n"),
            "job.yaml:line 4: trajectory.knot_spacing: 2 s is above the maximum 1 s");
  // Every knot interval needs a sample of the output rate.
  EXPECT_EQ(error_of(kMinimal + "trajectory: { knot_spacing: 0.05, output_rate: 10 }\n"),
            "job.yaml:line 4: trajectory.output_rate: 10 Hz samples every 0.1 s, more than "
            "trajectory.knot_spacing (0.05 s): every knot interval needs a sample");
  EXPECT_EQ(error_of(kMinimal + "mocap: { gap_fill_frames: 100000 }\n"),
            "job.yaml:line 4: mocap.gap_fill_frames: 100000 frames is above the maximum 1000 frames");
  EXPECT_EQ(error_of(kMinimal + "retarget: { scale: 1e6 }\n"),
            "job.yaml:line 4: retarget.scale: 1e+06 is above the maximum 10");
  EXPECT_EQ(error_of(kMinimal + "objective: { sigma: 1e9 }\n"),
            "job.yaml:line 4: objective.sigma: 1e+09 is above the maximum 1000");
  EXPECT_EQ(error_of(kMinimal + "objective: { torque_weight: -1e-3 }\n"),
            "job.yaml:line 4: objective.torque_weight: -0.001 is below the minimum 0");
  // The weight blends torque into the imitation: with the torque objective it would mean nothing.
  EXPECT_EQ(error_of(kMinimal + "objective: { kind: torque, torque_weight: 1e-3 }\n"),
            "job.yaml:line 4: objective.torque_weight: expected 0 with kind torque (the weight blends torque "
            "into the imitation objective)");
  EXPECT_EQ(error_of(kMinimal + "limits: { velocity_factor: 1e-6 }\n"),
            "job.yaml:line 4: limits.velocity_factor: 1e-06 is below the minimum 0.1");
  EXPECT_EQ(error_of(kMinimal + "solver: { max_iterations: 100000000 }\n"),
            "job.yaml:line 4: solver.max_iterations: 100000000 is above the maximum 10000");
  EXPECT_EQ(error_of(kMinimal + "solver: { tolerance: 1e-30 }\n"),
            "job.yaml:line 4: solver.tolerance: 1e-30 is below the minimum 1e-12");
  EXPECT_EQ(error_of(kMinimal + "solver: { constraint_tolerance: 0.5 }\n"),
            "job.yaml:line 4: solver.constraint_tolerance: 0.5 is above the maximum 0.01");
  EXPECT_EQ(error_of(kMinimal + "solver: { alm: { penalty_max: 1e300 } }\n"),
            "job.yaml:line 4: solver.alm.penalty_max: 1e+300 is above the maximum 1e+12");
  EXPECT_EQ(error_of(kMinimal + "stability: { zmp_margin: 1 }\n"),
            "job.yaml:line 4: stability.zmp_margin: 1 m is above the maximum 0.05 m");
  EXPECT_EQ(error_of(kMinimal + "stability: { max_iterations: 1000000 }\n"),
            "job.yaml:line 4: stability.max_iterations: 1000000 is above the maximum 100");
  const std::string walk = "job: walk\ninput: steps.yaml\noutput: out.pos\n";
  EXPECT_EQ(error_of(walk + "stability: { preview: { period: 1e-9 } }\n"),
            "job.yaml:line 4: stability.preview.period: 1e-09 s is below the minimum 0.001 s");
  EXPECT_EQ(error_of(walk + "stability: { preview: { horizon: 1e6 } }\n"),
            "job.yaml:line 4: stability.preview.horizon: 1e+06 s is above the maximum 5 s");
  EXPECT_EQ(error_of(walk + "stability: { preview: { r: 1e9 } }\n"),
            "job.yaml:line 4: stability.preview.r: 1e+09 is above the maximum 100");
  EXPECT_EQ(error_of(kMinimal + "payload: { frame: r_gripper, mass: 1e6 }\n"),
            "job.yaml:line 4: payload.mass: 1e+06 kg is above the maximum 100 kg");
  EXPECT_EQ(
      error_of(kMinimal + "payload: { frame: r_gripper, mass: 1, inertia: [1e9, 1e9, 1e9, 0, 0, 0] }\n"),
      "job.yaml:line 4: payload.inertia: 1e+09 kg m^2 is above the maximum 100 kg m^2");
  EXPECT_EQ(error_of(kMinimal + "contacts:\n  - { start: 0, end: 1e300, support: both }\n"),
            "job.yaml:line 5: contacts[0].end: 1e+300 s is above the maximum 1e+06 s");
}

// The bounds themselves are accepted, and so are the shipped and documented values.
TEST(JobRanges, BoundsAreInclusive) {
  EXPECT_NO_THROW(
      parse_job(kMinimal + "trajectory: { knot_spacing: 0.01, output_rate: 1000 }\n", "job.yaml"));
  EXPECT_NO_THROW(parse_job(kMinimal + "trajectory: { knot_spacing: 1, output_rate: 10 }\n", "job.yaml"));
  EXPECT_NO_THROW(parse_job(kMinimal + "retarget: { velocity_limit_scale: 0.1, scale: 10 }\n", "job.yaml"));
  EXPECT_NO_THROW(
      parse_job(kMinimal + "payload: { frame: r_gripper, mass: 100, com: [3, -3, 0] }\n", "job.yaml"));
}

// A job assembled on the command line has no file: the message names the key alone.
TEST(JobRanges, CommandLineValuesNameTheKey) {
  JobConfig job = default_job(JobKind::kRetarget);
  job.input = "clip.bvh";
  job.output.path = "out.pos";
  job.trajectory.knot_spacing = 1e-9;
  try {
    validate_job(job);
    FAIL() << "1e-9 s knots accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "trajectory.knot_spacing: 1e-09 s is below the minimum 0.01 s");
  }
}

TEST(JobRanges, ByteOrderMarkIsAccepted) {
  const JobConfig job =
      parse_job("\xEF\xBB\xBF" + kMinimal + "trajectory: { knot_spacing: 0.05 }\n", "job.yaml");
  EXPECT_EQ(job.job, JobKind::kRetarget);
  EXPECT_EQ(job.trajectory.knot_spacing, 0.05);
  // And from a file (core::read_text_file), with the lines still right.
  const auto dir = test::fresh_dir("job_bom");
  test::spit(dir / "job.yaml", "\xEF\xBB\xBF" + kMinimal + "trajectory: { knot_spacing: 0 }\n");
  try {
    load_job(dir / "job.yaml");
    FAIL() << "knot_spacing 0 accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "job.yaml").string() +
                                         ":line 4: trajectory.knot_spacing: 0 s is below the minimum 0.01 s");
  }
  std::filesystem::remove_all(dir);
}

TEST(JobRanges, Utf16FileIsRefusedAsSuch) {
  const auto dir = test::fresh_dir("job_utf16");
  std::string utf16 = "\xFF\xFE";
  for (const char c : kMinimal) utf16 += std::string{c, '\0'};
  test::spit(dir / "job.yaml", utf16);
  try {
    load_job(dir / "job.yaml");
    FAIL() << "a UTF-16 job accepted";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind((dir / "job.yaml").string() + ": is UTF-16 text", 0), 0u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace mimic::io
