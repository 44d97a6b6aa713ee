// The footstep plans of the walking clips of ../shared/mocap (pipeline/clip_footstep_plan) through mimic's
// walking pattern generator with the shipped robots' `walking:` limits: the limits are those the generator
// can walk (every leg within reach, the joint velocities within their limits, the ZMP inside the support).
// This is what the values of config/robots/{hrp2,jvrc1,g1}.yaml were checked on (G1 walks the OptiTrack
// plan; on 131_01 and Qualisys the generator does not converge or reach, whatever the step length).
#include <gtest/gtest.h>

#include <array>
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

// The generator's walk of a plan with the robot's nominal upper body, summarised. The preview control's
// horizon comes before the first transfer, so that the walk starts at rest (as the shipped walks).
walking::WalkingSummary walk(ClipFootstepPlan p, const model::Robot& robot, const StepLimits& limits) {
  p.plan.initial_hold += 1.6;
  const walking::WalkSchedule schedule(p.plan, limits.right_sole, limits.left_sole);
  const Eigen::VectorXd posture = robot.description.nominal_q(robot.model).tail(robot.model.nj);
  const walking::WalkingPattern pattern = walking::generate_walking_pattern(
      robot.model, robot.description, schedule, walking::UpperBodyTrajectory::fixed(posture));
  return walking::summarize_walking_pattern(robot.model, robot.description, schedule, pattern);
}

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
  const ClipFootstepPlan p = plan_clip_footsteps(
      contacts, footstep_scale(limits, contacts.leg_length), [](double t) { return t; }, stance[0], stance[1],
      limits);
  const walking::WalkingSummary s = walk(p, robot, limits);
  std::cout << wc.robot << " " << wc.clip << ": " << p.plan.steps.size() << " steps, " << s.duration
            << " s, joint velocity " << s.velocity.ratio << " of its limit (" << s.velocity.joint
            << "), ZMP margin " << s.min_zmp_margin << " m\n";
  EXPECT_LE(s.velocity.ratio, 1.0);
  EXPECT_GT(s.min_zmp_margin, 0.0);
  EXPECT_GE(s.min_angle_margin, 0.0);
}

// The shipped walking sample (data/mocap/walk.bvh: 10 steps of up to 0.6 m at 105 steps/min, a 40 degree
// turn) on HRP-2: every detected step in the plan, few catch-up steps and a stretch near HRP-2's own pace
// (0.3 m steps every 0.8 s against the scaled human's 0.46 m every 0.57 s: 2.2 at least), the feet as far
// as the scaled pelvis (within 25 %), and the generator walks it within the limits. The numbers are printed.
TEST(ClipFootstepWalk, ShippedWalkOnHrp2) {
  const auto contacts = retarget::detect_clip_contacts(retarget::extract_landmarks(
      mocap::load_clip((test::source_dir() / "data" / "mocap" / "walk.bvh").string())));
  const model::Robot robot = model::load_robot(model::default_robot_description_path());
  const StepLimits limits = step_limits(robot.description, robot.model);
  const auto stance = nominal_stance(robot.description, robot.model);
  const double scale = footstep_scale(limits, contacts.leg_length);
  const ClipFootstepPlan p = plan_clip_footsteps(
      contacts, scale, [](double t) { return t; }, stance[0], stance[1], limits);
  int clip_steps = 0, catch_up = 0;
  for (const auto& step : p.steps) (step.inserted ? catch_up : clip_steps) += 1;
  EXPECT_EQ(clip_steps, contacts.step_count());
  EXPECT_EQ(clip_steps, 10);
  // 8 catch-up steps measured: one pair for every second human step of 0.46 m (1.53 reaches).
  EXPECT_LE(catch_up, clip_steps);
  EXPECT_LT(p.time_stretch, 3.0);
  std::array<walking::FootPlacement, 2> feet = stance;
  for (const walking::Footstep& s : p.plan.steps) feet[s.foot == walking::Foot::kRight ? 0 : 1] = s.target;
  const double travel =
      (0.5 * (feet[0].position + feet[1].position) - 0.5 * (stance[0].position + stance[1].position)).norm();
  EXPECT_NEAR(travel, p.scaled_travel, 0.25 * p.scaled_travel);

  const walking::WalkingSummary s = walk(p, robot, limits);
  std::cout << "hrp2 walk.bvh: scale " << scale << ", " << clip_steps << " clip steps + " << catch_up
            << " catch-up, stretch " << p.time_stretch << ", scaled travel " << p.scaled_travel
            << " m, feet travel " << travel << " m, " << s.duration << " s, joint velocity "
            << s.velocity.ratio << " of its limit (" << s.velocity.joint << "), ZMP margin "
            << s.min_zmp_margin << " m\n";
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
