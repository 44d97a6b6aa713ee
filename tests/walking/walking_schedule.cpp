// The timeline of a footstep plan: the ZMP reference, the swing-foot trajectory and the waist.
#include "mimic/walking/walking_schedule.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "mimic/model/robot_description.hpp"
#include "mimic/spatial/explog.hpp"

namespace mimic::walking {
namespace {

using model::ContactPhase;
using model::SoleRectangle;

using spatial::SE3;

const model::RobotDescription& description() { return model::default_robot_description(); }

// Two steps: the right foot 0.2 m forward and turned by 0.3 rad, then the left foot beside it.
FootstepPlan two_steps() {
  return parse_footsteps(R"(initial_stance:
  right: { position: [0.0, -0.095] }
  left: { position: [0.0, 0.095] }
timing: { single_support: 0.8, double_support: 0.2, step_height: 0.04 }
initial_hold: 1.0
final_hold: 0.5
steps:
  - { foot: right, displacement: [0.2, 0.0], yaw: 0.3, waist_height_change: -0.02 }
  - { foot: left, displacement: [0.2, 0.0], single_support: 0.6, waist_height_change: -0.01 }
)",
                         "two_steps.yaml");
}

Vec2 sole_centre(const SE3& sole, const SoleRectangle& r) {
  return sole.act(spatial::Vec3(0.5 * (r.x_min + r.x_max), 0.5 * (r.y_min + r.y_max), 0.0)).head<2>();
}

TEST(WalkingSchedule, PhasesFollowThePlan) {
  const WalkSchedule schedule(two_steps(), description().right_sole, description().left_sole);
  // hold 1.0 | transfer 0.2, swing 0.8 | transfer 0.2, swing 0.6 | transfer 0.2 | hold 0.5
  // Times are running sums of these decimals (not exact in binary): rounding of a few ulps, bound 1e-12 s.
  EXPECT_NEAR(schedule.duration(), 3.5, 1e-12);
  const auto intervals = schedule.contact_intervals();
  ASSERT_EQ(intervals.size(), 5u);
  EXPECT_EQ(intervals[0].phase, model::ContactPhase::kDoubleSupport);
  EXPECT_NEAR(intervals[0].end, 1.2, 1e-12);
  EXPECT_EQ(intervals[1].phase, model::ContactPhase::kLeftSupport);  // the right foot swings
  EXPECT_NEAR(intervals[1].end, 2.0, 1e-12);
  EXPECT_EQ(intervals[2].phase, model::ContactPhase::kDoubleSupport);
  EXPECT_EQ(intervals[3].phase, model::ContactPhase::kRightSupport);
  EXPECT_NEAR(intervals[3].start, 2.2, 1e-12);
  EXPECT_NEAR(intervals[3].end, 2.8, 1e-12);
  EXPECT_EQ(intervals[4].phase, model::ContactPhase::kDoubleSupport);
  EXPECT_NEAR(intervals[4].end, 3.5, 1e-12);
  EXPECT_EQ(schedule.at(1.5).contact, ContactPhase::kLeftSupport);
  EXPECT_EQ(schedule.at(2.0).contact, ContactPhase::kDoubleSupport);  // touch-down starts the transfer
}

TEST(WalkingSchedule, ZmpReferenceIsPiecewiseBetweenSoleCentres) {
  const FootstepPlan plan = two_steps();
  const WalkSchedule schedule(plan, description().right_sole, description().left_sole);
  const SoleRectangle& r = description().right_sole;
  const SoleRectangle& l = description().left_sole;
  const Vec2 right0 = sole_centre(plan.initial_right.pose(), r),
             left0 = sole_centre(plan.initial_left.pose(), l);
  const Vec2 right1 = sole_centre(plan.steps[0].target.pose(), r),
             left1 = sole_centre(plan.steps[1].target.pose(), l);
  // Start and end in the middle of both feet: the same expression, a few ulps (1e-15 m). Inside a transfer
  // the interpolation parameter comes from a time difference (rounding ~1e-16 s / 0.2 s), hence 1e-12 m.
  EXPECT_LT((schedule.at(0.0).zmp - 0.5 * (right0 + left0)).norm(), 1e-15);
  EXPECT_LT((schedule.at(0.7).zmp - 0.5 * (right0 + left0)).norm(), 1e-15);
  EXPECT_LT((schedule.at(3.5).zmp - 0.5 * (right1 + left1)).norm(), 1e-15);
  // Linear transfer: half way through the first one, half way to the left (support) sole's centre.
  EXPECT_LT((schedule.at(1.1).zmp - 0.5 * (0.5 * (right0 + left0) + left0)).norm(), 1e-12);
  // Single support: the centre of the support sole, all along.
  for (const double t : {1.2, 1.6, 1.999}) EXPECT_LT((schedule.at(t).zmp - left0).norm(), 1e-12) << t;
  for (const double t : {2.2, 2.5, 2.799}) EXPECT_LT((schedule.at(t).zmp - right1).norm(), 1e-12) << t;
  EXPECT_LT((schedule.at(2.9).zmp - 0.5 * (0.5 * (right1 + left1) + right1)).norm(), 1e-12);
}

TEST(WalkingSchedule, SwingFootLeavesAndLandsWithZeroVelocityAndAcceleration) {
  const FootstepPlan plan = two_steps();
  const WalkSchedule schedule(plan, description().right_sole, description().left_sole);
  const auto right = [&](double t) { return schedule.at(t).right_sole; };
  // Sole position and yaw as a 4-vector, for finite differences.
  const auto pose4 = [&](double t) {
    const SE3 s = right(t);
    return Eigen::Vector4d(s.p.x(), s.p.y(), s.p.z(), std::atan2(s.R(1, 0), s.R(0, 0)));
  };
  const double h = 1e-4;
  for (const double t : {1.2, 2.0}) {  // lift-off and touch-down of the right foot
    const Eigen::Vector4d velocity = (pose4(t + h) - pose4(t - h)) / (2 * h);
    const Eigen::Vector4d acceleration = (pose4(t + h) - 2 * pose4(t) + pose4(t - h)) / (h * h);
    // The quintic scaling has s'(tau) ~ 30 tau^2: one-sided over h that is ~1e-7 m/s; s'' ~ 60 tau: ~1e-2.
    // Measured 4.3e-8 m/s and 8.6e-4 m/s^2 (a jump in velocity would show as ~0.1 / h).
    EXPECT_LT(velocity.norm(), 1e-6) << t;
    EXPECT_LT(acceleration.norm(), 1e-2) << t;
  }
  // Mid-swing: at the step height, half way, the yaw half turned; the support foot has not moved. Exact
  // binary fractions of the swing (1e-15) or one interpolation with rounded times (1e-12); the landing and
  // the support foot are copies of the plan's poses (1e-15).
  const SE3 mid = right(1.6);
  EXPECT_NEAR(mid.p.z(), 0.04, 1e-15);
  EXPECT_NEAR(mid.p.x(), 0.1, 1e-12);
  EXPECT_NEAR(std::atan2(mid.R(1, 0), mid.R(0, 0)), 0.15, 1e-12);
  EXPECT_LT((schedule.at(1.6).left_sole.p - plan.initial_left.pose().p).norm(), 1e-15);
  // Landed: exactly on the footstep, flat.
  const SE3 landed = right(2.0);
  EXPECT_LT((landed.p - plan.steps[0].target.pose().p).norm(), 1e-15);
  EXPECT_LT(spatial::log3(landed.R.transpose() * plan.steps[0].target.pose().R).norm(), 1e-15);
  // The swing stays above the ground and the speed profile is single-humped: no overshoot past the target.
  for (double t = 1.2; t <= 2.0; t += 0.01) {
    EXPECT_GE(right(t).p.z(), 0.0);
    EXPECT_LE(right(t).p.x(), 0.2 + 1e-12);
  }
}

TEST(WalkingSchedule, WaistHeightAndYawFollowTheSteps) {
  const WalkSchedule schedule(two_steps(), description().right_sole, description().left_sole);
  EXPECT_DOUBLE_EQ(schedule.at(0.5).waist_height_change, 0.0);
  // Interpolated with rounded times, as the ZMP above: 1e-12.
  EXPECT_NEAR(schedule.at(1.0 + 0.5).waist_height_change, -0.01, 1e-12);  // half way through step 1
  EXPECT_NEAR(schedule.at(2.0).waist_height_change, -0.02, 1e-12);
  EXPECT_NEAR(schedule.at(3.5).waist_height_change, -0.03, 1e-12);
  // Yaw: the mean of the feet's, 0.15 rad once the right foot has turned by 0.3 rad.
  EXPECT_DOUBLE_EQ(schedule.at(0.5).waist_yaw, 0.0);
  EXPECT_NEAR(schedule.at(2.1).waist_yaw, 0.15, 1e-12);
}

TEST(WalkingSchedule, TimeScalingFunctions) {
  EXPECT_DOUBLE_EQ(minimum_jerk(0.0), 0.0);
  EXPECT_DOUBLE_EQ(minimum_jerk(0.5), 0.5);
  EXPECT_DOUBLE_EQ(minimum_jerk(1.0), 1.0);
  EXPECT_DOUBLE_EQ(minimum_jerk(2.0), 1.0);
  EXPECT_DOUBLE_EQ(swing_bump(0.5), 1.0);
  EXPECT_DOUBLE_EQ(swing_bump(-1.0), 0.0);
  EXPECT_NEAR(angle_difference(3.0, -3.0), 6.0 - 2 * M_PI, 1e-15);  // one subtraction of 2 pi: an ulp
  EXPECT_NEAR(angle_difference(-3.0, 3.0), 2 * M_PI - 6.0, 1e-15);
}

}  // namespace
}  // namespace mimic::walking
