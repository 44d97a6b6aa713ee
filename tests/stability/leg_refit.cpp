#include "mimic/stability/leg_refit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/spatial/explog.hpp"
#include "support/hrp2_robot.hpp"

namespace mimic::stability {
namespace {

using spatial::SE3;
using spatial::Vec3;

// Sole poses: the refit's Newton polish stops at 1e-13 m / rad on the IK's own chain, and that chain agrees
// with the model's kinematics to rounding (1e-14, tests/stability/leg_ik.cpp), so 1e-10 leaves three
// orders of margin and still catches any wrong angle written into q (a 1e-8 rad error moves the sole by
// ~1e-8 m). Joint angles: pose error over the leg Jacobian's smallest singular value; the knee is kept
// >= 0.2 rad below so that value is not small (measured 1.6e-11 rad at worst in leg_ik.cpp's round trip).
constexpr double kSoleTolerance = 1e-10;
constexpr double kAngleTolerance = 1e-9;

struct Hrp2 : test::Hrp2Robot {
  Legs legs = Legs::of(model, feet);
};

const Hrp2& robot() {
  static const Hrp2 r;
  return r;
}

std::array<SE3, 2> model_soles(const Hrp2& r, const Eigen::VectorXd& q) {
  model::Data data(r.model);
  dynamics::forward_kinematics(r.model, data, q);
  return {dynamics::update_frame_placement(r.model, data, r.feet.right_sole_frame),
          dynamics::update_frame_placement(r.model, data, r.feet.left_sole_frame)};
}

double rotation_error(const SE3& a, const SE3& b) { return spatial::log3(a.R.transpose() * b.R).norm(); }

TEST(LegRefit, FindsBothHrp2LegsFromTheSoleFrames) {
  const Hrp2& r = robot();
  const std::array<int, 12> joints = r.legs.joints();
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(joints[static_cast<std::size_t>(i)], r.model.joint_index("RLEG_JOINT" + std::to_string(i)));
    EXPECT_EQ(joints[static_cast<std::size_t>(i + 6)], r.model.joint_index("LLEG_JOINT" + std::to_string(i)));
  }
  EXPECT_EQ(r.legs.right().sole_frame(), r.description.frames.right_sole);
  EXPECT_EQ(r.legs.left().sole_frame(), r.description.frames.left_sole);
  EXPECT_EQ(r.legs.right().joints()[Legs::kKnee], r.model.joint_index("RLEG_JOINT3"));
  EXPECT_EQ(r.legs.left().joints()[Legs::kKnee], r.model.joint_index("LLEG_JOINT3"));
  // They are the description's leg groups, right then left (the reader checks that each group ends at its
  // sole, so the chain found from the sole cannot be another one).
  std::vector<int> groups;
  for (const auto* group : {&r.description.groups.right_leg, &r.description.groups.left_leg})
    for (const auto& name : *group) groups.push_back(r.model.joint_index(name));
  EXPECT_EQ(std::vector<int>(joints.begin(), joints.end()), groups);
}

// A random configuration (legs within their limits, knees bent) under a random base pose gives two sole
// poses; from a seed near the true legs the refit must put the soles there and find those very legs.
TEST(LegRefit, RoundTripUnderAMovedBase) {
  const Hrp2& r = robot();
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> nudge(-0.02, 0.02);
  int checked = 0;
  double worst_sole = 0.0, worst_angle = 0.0;
  while (checked < 500) {
    const Eigen::VectorXd truth = model::random_configuration(r.model, rng);
    if (truth(r.model.idx_q(r.legs.right().joints()[Legs::kKnee])) < 0.2 ||
        truth(r.model.idx_q(r.legs.left().joints()[Legs::kKnee])) < 0.2)
      continue;  // near the stretched knee the branches meet: "the branch nearest the seed" is ill-posed
    const std::array<SE3, 2> soles = model_soles(r, truth);
    Eigen::VectorXd q = truth;
    for (const int joint : r.legs.joints()) q(r.model.idx_q(joint)) += nudge(rng);
    const Eigen::VectorXd seed = q;

    const LegRefit refit =
        refit_legs(r.model, r.legs, model::base_pose(r.model, truth), soles[0], soles[1], q);
    ASSERT_TRUE(refit.ok()) << to_string(refit.result.status) << " on leg " << refit.failed_leg;
    const std::array<SE3, 2> reached = model_soles(r, q);
    for (std::size_t f = 0; f < 2; ++f) {
      worst_sole =
          std::max({worst_sole, (reached[f].p - soles[f].p).norm(), rotation_error(reached[f], soles[f])});
    }
    worst_angle = std::max(worst_angle, (q - truth).cwiseAbs().maxCoeff());
    // Only the twelve leg joints are written.
    Eigen::VectorXd others = q - seed;
    for (const int joint : r.legs.joints()) others(r.model.idx_q(joint)) = 0.0;
    EXPECT_EQ(others.cwiseAbs().maxCoeff(), 0.0);
    ++checked;
  }
  std::printf("worst sole error %.3g m / rad, worst angle error %.3g rad\n", worst_sole, worst_angle);
  EXPECT_LT(worst_sole, kSoleTolerance);
  EXPECT_LT(worst_angle, kAngleTolerance);
}

TEST(LegRefit, ReportsAnUnreachableLegAndLeavesItAlone) {
  const Hrp2& r = robot();
  const Eigen::VectorXd rest = r.description.nominal_q(r.model);
  const std::array<SE3, 2> soles = model_soles(r, rest);
  SE3 raised = model::base_pose(r.model, rest);
  raised.p.z() += 0.3;  // the soles 0.9 m below the hips: beyond the 0.705 m straight leg

  Eigen::VectorXd q = rest;
  LegRefit refit = refit_legs(r.model, r.legs, raised, soles[0], soles[1], q);
  EXPECT_FALSE(refit.ok());
  EXPECT_EQ(refit.failed_leg, Legs::kRight);
  EXPECT_EQ(refit.result.status, LegIkStatus::kOutOfReach);
  EXPECT_EQ(q, rest);

  // Only the left sole out of reach: the right leg is refitted, the left one reported and untouched.
  SE3 far_left = soles[1];
  far_left.p.z() -= 0.3;
  const SE3 base = model::base_pose(r.model, rest) * SE3(Eigen::Matrix3d::Identity(), Vec3(0.0, 0.0, 0.01));
  refit = refit_legs(r.model, r.legs, base, soles[0], far_left, q);
  EXPECT_EQ(refit.failed_leg, Legs::kLeft);
  EXPECT_EQ(refit.result.status, LegIkStatus::kOutOfReach);
  EXPECT_GT((leg_angles(r.model, r.legs.right(), q) - leg_angles(r.model, r.legs.right(), rest)).norm(),
            1e-3);
  EXPECT_EQ(leg_angles(r.model, r.legs.left(), q), leg_angles(r.model, r.legs.left(), rest));

  // Reachable only outside the limits: the foot turned 90 degrees outward, the hip yaw stops at 45.
  SE3 turned = soles[0];
  turned.R = Eigen::AngleAxisd(-M_PI / 2, Vec3::UnitZ()).toRotationMatrix();
  q = rest;
  refit = refit_legs(r.model, r.legs, model::base_pose(r.model, rest), turned, soles[1], q);
  EXPECT_EQ(refit.failed_leg, Legs::kRight);
  EXPECT_EQ(refit.result.status, LegIkStatus::kJointLimit);
  EXPECT_NE(describe_failure(r.model, r.legs.right(), refit.result).find("RLEG_JOINT0"), std::string::npos);
  EXPECT_EQ(q, rest);
}

// Three samples: both feet, right support, both feet. The waist of q is 1 cm ahead of the plan, so every
// sole in support is 1 cm off; the plan's right knee moves at sample 1, yet the right foot must go back
// where its support began (sample 0), and the left foot in the air must not be touched.
TEST(LegRefit, SupportLegsGoBackWhereTheirSupportBegan) {
  const Hrp2& r = robot();
  const Eigen::VectorXd rest = r.description.nominal_q(r.model);
  model::SampledMotion planned;
  planned.times = {0.0, 0.005, 0.01};
  planned.phases = {model::ContactPhase::kDoubleSupport, model::ContactPhase::kRightSupport,
                    model::ContactPhase::kDoubleSupport};
  planned.q = rest.replicate(1, 3);
  planned.q(r.model.idx_q(r.legs.right().joints()[Legs::kKnee]), 1) += 0.01;
  Eigen::MatrixXd q = planned.q;
  q.row(0).array() += 0.01;  // base x
  const Eigen::MatrixXd before = q;

  const SupportRefitReport report = refit_support_legs(r.model, r.legs, planned, q);
  // The feet were 1 cm off (a base translation moves them by exactly that, up to rounding), and at sample 1
  // the right foot also by what the knee's extra 0.01 rad moves it.
  EXPECT_GE(report.max_foot_error, 0.01 - 1e-12);
  EXPECT_GT(report.max_angle_change, 0.0);
  const std::array<SE3, 2> anchors = model_soles(r, rest);
  for (Eigen::Index k = 0; k < 3; ++k) {
    const std::array<SE3, 2> soles = model_soles(r, q.col(k));
    EXPECT_LT((soles[0].p - anchors[0].p).norm(), kSoleTolerance) << "sample " << k;
    EXPECT_LT(rotation_error(soles[0], anchors[0]), kSoleTolerance) << "sample " << k;
    if (k == 1) {
      EXPECT_EQ(leg_angles(r.model, r.legs.left(), q.col(k)),
                leg_angles(r.model, r.legs.left(), before.col(k)));
    } else {
      EXPECT_LT((soles[1].p - anchors[1].p).norm(), kSoleTolerance) << "sample " << k;
    }
  }
}

TEST(LegRefit, SupportLegOutOfReachNamesTheSampleAndTheLeg) {
  const Hrp2& r = robot();
  model::SampledMotion planned;
  planned.times = {0.0};
  planned.phases = {model::ContactPhase::kLeftSupport};
  planned.q = r.description.nominal_q(r.model);
  Eigen::MatrixXd q = planned.q;
  q(2, 0) += 0.3;  // base z
  try {
    (void)refit_support_legs(r.model, r.legs, planned, q);
    FAIL() << "no InfeasibleError";
  } catch (const InfeasibleError& e) {
    EXPECT_NE(std::string(e.what()).find("left leg"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("t = 0 s"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mimic::stability
