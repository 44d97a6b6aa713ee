// The footstep plans of the walking clips of ../shared/mocap (pipeline/clip_footstep_plan) through mimic's
// walking pattern generator with the shipped robots' `walking:` limits: the limits are those the generator
// can walk (every leg within reach, the joint velocities within their limits, the ZMP inside the support).
// This is what the values of config/robots/{hrp2,jvrc1,g1}.yaml were checked on (G1 walks the OptiTrack
// plan; on 131_01 and Qualisys the generator does not converge or reach, whatever the step length).
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "mimic/mocap/load.hpp"
#include "mimic/model/robot.hpp"
#include "mimic/pipeline/clip_footstep_plan.hpp"
#include "mimic/retarget/landmark_track.hpp"
#include "mimic/walking/walking_evaluation.hpp"
#include "mimic/walking/walking_pattern.hpp"
#include "mimic/walking/walking_schedule.hpp"
#include "mimic/walking/walking_upper_body.hpp"
#include "support/shared_data.hpp"

namespace mimic::pipeline {
namespace {

struct WalkCase {
  const char* robot;
  const char* clip;
};
void PrintTo(const WalkCase& c, std::ostream* os) { *os << c.robot << " " << c.clip; }

class ClipFootstepWalk : public ::testing::TestWithParam<WalkCase> {};

TEST_P(ClipFootstepWalk, GeneratorWalksThePlan) {
  const WalkCase& wc = GetParam();
  MIMIC_REQUIRE_SHARED(path, std::string("mocap/") + wc.clip);
  if (std::string(wc.robot) != "hrp2") {
    MIMIC_REQUIRE_SHARED(robots, "robots");
  }
  const auto contacts = retarget::detect_clip_contacts(retarget::extract_landmarks(mocap::load_clip(path)));
  const model::Robot robot = model::load_robot(
      (test::source_dir() / "config" / "robots" / (std::string(wc.robot) + ".yaml")).string());
  const StepLimits limits = step_limits(robot.description, robot.model);
  const auto stance = nominal_stance(robot.description, robot.model);
  ClipFootstepPlan p = plan_clip_footsteps(
      contacts, footstep_scale(limits, contacts.leg_length), [](double t) { return t; }, stance[0], stance[1],
      limits);
  // The preview control's horizon before the first transfer, so that the walk starts at rest (as the
  // shipped walks); the caller of plan_clip_footsteps adds it the same way.
  p.plan.initial_hold += 1.6;
  const walking::WalkSchedule schedule(p.plan, limits.right_sole, limits.left_sole);
  const Eigen::VectorXd posture = robot.description.nominal_q(robot.model).tail(robot.model.nj);
  const walking::WalkingPattern pattern = walking::generate_walking_pattern(
      robot.model, robot.description, schedule, walking::UpperBodyTrajectory::fixed(posture));
  const walking::WalkingSummary s =
      walking::summarize_walking_pattern(robot.model, robot.description, schedule, pattern);
  std::cout << wc.robot << " " << wc.clip << ": " << p.plan.steps.size() << " steps, " << s.duration
            << " s, joint velocity " << s.velocity.ratio << " of its limit (" << s.velocity.joint
            << "), ZMP margin " << s.min_zmp_margin << " m\n";
  EXPECT_LE(s.velocity.ratio, 1.0);
  EXPECT_GT(s.min_zmp_margin, 0.0);
  EXPECT_GE(s.min_angle_margin, 0.0);
}

INSTANTIATE_TEST_SUITE_P(Clips, ClipFootstepWalk,
                         ::testing::Values(WalkCase{"hrp2", "bvh/bvh11__cmu_131_01.bvh"},
                                           WalkCase{"hrp2", "c3d/ezc3d__Qualisys.c3d"},
                                           WalkCase{"hrp2", "c3d/btkdata__optitrack_mocap36.c3d"},
                                           WalkCase{"jvrc1", "bvh/bvh11__cmu_131_01.bvh"},
                                           WalkCase{"jvrc1", "c3d/ezc3d__Qualisys.c3d"},
                                           WalkCase{"jvrc1", "c3d/btkdata__optitrack_mocap36.c3d"},
                                           WalkCase{"g1", "c3d/btkdata__optitrack_mocap36.c3d"}));

}  // namespace
}  // namespace mimic::pipeline
