#include "mimic/stability/leg_ik.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/spatial/explog.hpp"
#include "support/hrp2_robot.hpp"

namespace mimic::stability {
namespace {

using spatial::SE3;
using spatial::Vec3;

// "Solved" in LegKinematics means 1e-9 m / rad; the requirement is 0.1 mm and 0.01 degree. The checks below
// use the stricter 1e-9 against the MODEL's forward kinematics (not the IK's own chain), so any mismatch
// between the geometry the IK reads and the model would show.
constexpr double kPoseTolerance = 1e-9;

// The shared HRP-2 (support/hrp2_robot.hpp) and its two legs.
struct Hrp2 {
  const model::Model& model = test::Hrp2Robot::instance().model;
  const model::RobotDescription& description = test::Hrp2Robot::instance().description;
  LegKinematics right{model, description.frames.right_sole};
  LegKinematics left{model, description.frames.left_sole};
};

Hrp2& robot() {
  static Hrp2 r;
  return r;
}

SE3 model_sole_pose(const model::Model& model, const Eigen::VectorXd& q, const std::string& frame) {
  model::Data data(model);
  dynamics::forward_kinematics(model, data, q);
  return dynamics::update_frame_placement(model, data, model.frame_index(frame));
}

SE3 base_of(const Eigen::VectorXd& q) {
  const Eigen::Quaterniond quat(q(6), q(3), q(4), q(5));
  return SE3(quat.toRotationMatrix(), q.head<3>());
}

double rotation_error(const SE3& a, const SE3& b) { return spatial::log3(a.R.transpose() * b.R).norm(); }

TEST(LegIk, ReadsTheHrp2LegFromTheModel) {
  const Hrp2& r = robot();
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(r.right.joints()[static_cast<std::size_t>(i)],
              r.model.joint_index("RLEG_JOINT" + std::to_string(i)));
    EXPECT_EQ(r.left.joints()[static_cast<std::size_t>(i)],
              r.model.joint_index("LLEG_JOINT" + std::to_string(i)));
  }
  // Half-sitting: soles flat at (0.00949, -/+0.095, 0) (hrp2.md §4, D1), published with 5 decimals (+-5e-6 m;
  // measured 5.0e-7 off). The IK chain against the model's kinematics: round-off (1e-14).
  const Eigen::VectorXd q = r.description.nominal_q(r.model);
  const SE3 right = r.right.sole_pose(base_of(q), q.segment<6>(r.model.idx_q(0)));
  EXPECT_NEAR((right.p - Vec3(0.00949, -0.095, 0.0)).norm(), 0.0, 1e-5);
  EXPECT_TRUE(right.isApprox(model_sole_pose(r.model, q, r.description.frames.right_sole), 1e-14));
}

TEST(LegIk, HalfSittingIsRecoveredExactly) {
  const Hrp2& r = robot();
  const Eigen::VectorXd q = r.description.nominal_q(r.model);
  for (const auto* leg : {&r.right, &r.left}) {
    const auto& frame = leg == &r.right ? r.description.frames.right_sole : r.description.frames.left_sole;
    const LegIkResult result = leg->solve(base_of(q), model_sole_pose(r.model, q, frame));
    ASSERT_TRUE(result.ok()) << to_string(result.status);
    // Closed form from the model's own sole pose: round-off only (measured 3.3e-16 rad).
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(result.angles(i), q(r.model.idx_q(leg->joints()[i])), 1e-13);
  }
}

// Random configurations within the joint limits and a random waist pose: the sole pose they give is
// reachable, so the IK must reach it (checked with the model's kinematics) within the limits; seeded with
// the configuration, it must find that very configuration (the closed form picks the branch nearest the
// seed).
TEST(LegIk, RoundTripOnRandomReachablePoses) {
  const Hrp2& r = robot();
  std::mt19937 rng(2024);
  int checked = 0;
  double worst_position = 0.0, worst_rotation = 0.0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Eigen::VectorXd q = model::random_configuration(r.model, rng);
    for (const auto* leg : {&r.right, &r.left}) {
      const auto& frame = leg == &r.right ? r.description.frames.right_sole : r.description.frames.left_sole;
      const SE3 target = model_sole_pose(r.model, q, frame);
      LegAngles truth;
      for (int i = 0; i < 6; ++i) truth(i) = q(r.model.idx_q(leg->joints()[i]));

      const LegIkResult seeded = leg->solve(base_of(q), target, truth);
      ASSERT_TRUE(seeded.ok()) << to_string(seeded.status) << " at trial " << trial;
      // A near-singular leg amplifies rounding: measured 1.6e-11 rad at worst over the 4000 poses.
      EXPECT_LT((seeded.angles - truth).norm(), 1e-9);

      const LegIkResult unseeded = leg->solve(base_of(q), target);
      ASSERT_TRUE(unseeded.ok()) << to_string(unseeded.status) << " at trial " << trial;
      Eigen::VectorXd solved = q;
      for (int i = 0; i < 6; ++i) {
        const int j = leg->joints()[static_cast<std::size_t>(i)];
        solved(r.model.idx_q(j)) = unseeded.angles(i);
        // Within the limits up to the IK's own 1e-9 rad.
        EXPECT_GE(unseeded.angles(i), r.model.lower_limit(j) - 1e-9);
        EXPECT_LE(unseeded.angles(i), r.model.upper_limit(j) + 1e-9);
      }
      const SE3 reached = model_sole_pose(r.model, solved, frame);
      worst_position = std::max(worst_position, (reached.p - target.p).norm());
      worst_rotation = std::max(worst_rotation, rotation_error(reached, target));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4000);
  std::printf("worst sole error: %.3g m, %.3g rad\n", worst_position, worst_rotation);
  EXPECT_LT(worst_position, kPoseTolerance);
  EXPECT_LT(worst_rotation, kPoseTolerance);
}

TEST(LegIk, FailsClearlyOutOfReach) {
  const Hrp2& r = robot();
  const Eigen::VectorXd q = r.description.nominal_q(r.model);
  const SE3 waist = base_of(q);
  SE3 sole = model_sole_pose(r.model, q, r.description.frames.right_sole);

  sole.p.z() -= 0.2;  // straight leg from the hip to the sole: 0.705 m, the sole would be 0.849 m below
  EXPECT_EQ(r.right.solve(waist, sole).status, LegIkStatus::kOutOfReach);
  EXPECT_THROW((void)r.right.solve_or_throw(waist, sole), InfeasibleError);

  // Just reachable: 1 mm short of the straight leg.
  SE3 straight = waist * SE3(Eigen::Matrix3d::Identity(), Vec3(0.0, -0.095, -0.705 + 0.001));
  EXPECT_TRUE(r.right.solve(waist, straight).ok());
  straight.p.z() -= 0.002;  // 1 mm beyond
  EXPECT_EQ(r.right.solve(waist, straight).status, LegIkStatus::kOutOfReach);
}

TEST(LegIk, ReportsAPoseOnlyReachableOutsideTheLimits) {
  const Hrp2& r = robot();
  const Eigen::VectorXd q = r.description.nominal_q(r.model);
  SE3 sole = model_sole_pose(r.model, q, r.description.frames.right_sole);
  // The right foot turned 90 degrees outward (yaw -90): the hip yaw stops at -45 degrees (hrp2.md §2).
  sole.R = Eigen::AngleAxisd(-M_PI / 2, Vec3::UnitZ()).toRotationMatrix();
  const LegIkResult result = r.right.solve(base_of(q), sole);
  EXPECT_EQ(result.status, LegIkStatus::kJointLimit);
  EXPECT_EQ(result.limit_joint, 0);
  EXPECT_THROW((void)r.right.solve_or_throw(base_of(q), sole), InfeasibleError);
}

}  // namespace
}  // namespace mimic::stability
