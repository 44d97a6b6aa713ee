// The upper body of the whole-body walk (pipeline/whole_body_upper_body.hpp) on the shared walking clips
// whose smoothing failed because of it (../shared/mocap, skipped visibly when absent), HRP-2, the job's
// defaults: the walking pattern carrying it is checked before any smoothing of the legs.
//  * Qualisys: the per-frame IK's noise made CHEST_JOINT0 need 215 N m against its 151 (at 9.6 s);
//  * CMU 131_01: the left hand went 7.5 cm into the left thigh (LARM_LINK6 / LLEG_LINK2) over 4.2 s, the
//    elbow into the body.
// With the fit, the pattern breaks no torque limit (the arms' clearance from the legs is the upper body's
// solve's, tests/pipeline/whole_body_upper_body_solve.cpp), the upper body stays within 0.05 rad RMS of the
// reference (a walking human's arm swing passes the 1 Hz fit nearly whole) and its peak acceleration falls
// below a quarter. The summary and the JSON report carry the fit's numbers.
#include "mimic/pipeline/whole_body_upper_body.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <iostream>
#include <string>

#include "mimic/evaluation/check.hpp"
#include "mimic/mocap/load.hpp"
#include "mimic/pipeline/clip_footstep_plan.hpp"
#include "mimic/pipeline/job_options.hpp"
#include "mimic/pipeline/kinematic_retarget.hpp"
#include "mimic/pipeline/reports.hpp"
#include "mimic/pipeline/robot.hpp"
#include "mimic/pipeline/step_limits.hpp"
#include "mimic/retarget/clip_contacts.hpp"
#include "mimic/retarget/landmark_track.hpp"
#include "support/shared_data.hpp"

namespace mimic::pipeline {
namespace {

class WholeBodyUpperBody : public ::testing::TestWithParam<const char*> {};

TEST_P(WholeBodyUpperBody, PatternKeepsTorqueLimitsAndTheFitFiltersTheNoise) {
  MIMIC_REQUIRE_SHARED(path, std::string("mocap/") + GetParam());
  const io::JobConfig job;
  const Robot robot = load_robot(job.robot);
  const mocap::Clip clip = mocap::load_clip(path);
  const KinematicRetargetResult kinematic =
      kinematic_retarget(clip, robot.model, robot.description, kinematic_retarget_options(job));
  const retarget::ClipContacts contacts = retarget::detect_clip_contacts(retarget::extract_landmarks(clip));
  const auto [right, left] = nominal_stance(robot.description, robot.model);
  const StepLimits limits = step_limits(robot.description, robot.model);
  const ClipFootstepPlan planned = plan_clip_footsteps(
      contacts, footstep_scale(limits, contacts.leg_length),
      [&](double t) { return retimed_clip_time(kinematic.timing, t); }, right, left, limits);
  const walking::WalkSchedule schedule(planned.plan, robot.description.right_sole,
                                       robot.description.left_sole);
  const WalkWithUpperBody walk =
      walk_with_upper_body(robot, kinematic.reference, planned, schedule, walking_options(job));
  const WalkUpperBodyReport& r = walk.report;
  std::cout << GetParam() << ": change RMS " << r.rms_change << " rad, max " << r.max_change
            << "; peak acceleration " << r.peak_acceleration_before << " (" << r.peak_joint_before << ") -> "
            << r.peak_acceleration_after << " (" << r.peak_joint_after << ")\n";

  const evaluation::Report report =
      evaluation::check_motion(robot.model, robot.feet, walk.pattern.motion, evaluation::CheckOptions{});
  for (const evaluation::Violation& v : report.violations)
    EXPECT_NE(v.kind, evaluation::ViolationKind::kTorque) << evaluation::describe(v);
  EXPECT_LT(r.rms_change, 0.05);
  EXPECT_LT(r.peak_acceleration_after, 0.25 * r.peak_acceleration_before);
}

INSTANTIATE_TEST_SUITE_P(SharedWalks, WholeBodyUpperBody,
                         ::testing::Values("c3d/ezc3d__Qualisys.c3d", "bvh/bvh11__cmu_131_01.bvh"));

// The summary and the JSON report say what the fit did (131_01's numbers).
TEST(WholeBodyUpperBodyReport, SummaryLineAndJsonKeys) {
  RetargetPipelineResult result;
  WholeBodyReport walk;
  walk.upper_body = {1.0, 0.043, 0.3901, "RARM_JOINT0", 586.3, 14.3, "RARM_JOINT0", "RARM_JOINT0"};
  result.whole_body = walk;
  const std::string summary = format_retarget_summary(result);
  EXPECT_NE(
      summary.find("upper body: fitted at 1 Hz, change RMS 0.0430 rad, max 0.3901 rad (RARM_JOINT0); peak "
                   "acceleration 586.3 -> 14.3 rad/s^2\n"),
      std::string::npos)
      << summary;
  const YAML::Node json = YAML::Load(retarget_report_json(io::JobConfig{}, result).dump());
  EXPECT_FALSE(json["whole_body"]["upper_body"]["clearance_rounds"]);
  EXPECT_DOUBLE_EQ(json["whole_body"]["upper_body"]["change_rms_rad"].as<double>(), 0.043);
}

}  // namespace
}  // namespace mimic::pipeline
