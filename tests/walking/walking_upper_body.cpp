// Upper-body trajectories of a walking pattern: keyframe YAML, resampled .pos, and their errors.
#include "mimic/walking/walking_upper_body.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "mimic/core/error.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/stability/leg_refit.hpp"
#include "support/shared_data.hpp"
#include "support/temp_path.hpp"

namespace mimic::walking {
namespace {

struct Hrp2 {
  model::Model model = model::load_urdf(test::hrp2_urdf().string(), model::LoadOptions::hrp2());
  model::RobotDescription description = model::default_robot_description();
  Eigen::VectorXd posture = description.nominal_q(model).tail(model.nj);
  std::vector<int> legs = [this] {
    const auto joints = stability::Legs::of(model, stability::Feet::from(model, description)).joints();
    return std::vector<int>(joints.begin(), joints.end());
  }();
};

const Hrp2& robot() {
  static const Hrp2 r;
  return r;
}

UpperBodyTrajectory keyframes(const std::string& yaml) {
  const Hrp2& r = robot();
  return parse_upper_body_keyframes(yaml, "/cfg/arms.yaml", r.model, r.posture, r.legs);
}

std::string error_of(const std::string& yaml) {
  try {
    keyframes(yaml);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(WalkingUpperBody, KeyframesStartFromThePostureAndMoveByMinimumJerk) {
  const Hrp2& r = robot();
  const int shoulder = r.model.joint_index("RARM_JOINT0"), elbow = r.model.joint_index("RARM_JOINT3");
  const UpperBodyTrajectory arms = keyframes(R"(keyframes:
  - { time: 1.0 }
  - time: 3.0
    joints: { RARM_JOINT0: -0.2, RARM_JOINT3: -1.0 }
  - time: 4.0
    joints: { RARM_JOINT3: -0.5 }
)");
  EXPECT_DOUBLE_EQ(arms.end_time(), 4.0);
  Eigen::VectorXd q(r.model.nj);
  arms.at(0.0, q);
  EXPECT_EQ(q, r.posture);  // held before the first keyframe
  // Interpolation of O(1) rad values by a polynomial evaluated at exact binary fractions of the time: a
  // few ulps (1e-15).
  arms.at(2.0, q);  // minimum jerk is half way at half time
  EXPECT_NEAR(q[shoulder], 0.5 * (r.posture[shoulder] - 0.2), 1e-15);
  EXPECT_NEAR(q[elbow], 0.5 * (r.posture[elbow] - 1.0), 1e-15);
  arms.at(1.5, q);  // a quarter of the time: s(1/4) = 0.103515625
  EXPECT_NEAR(q[shoulder], r.posture[shoulder] + 0.103515625 * (-0.2 - r.posture[shoulder]), 1e-15);
  arms.at(3.5, q);  // the shoulder keeps its value; the elbow moves on
  EXPECT_DOUBLE_EQ(q[shoulder], -0.2);
  EXPECT_NEAR(q[elbow], -0.75, 1e-15);
  arms.at(10.0, q);
  EXPECT_DOUBLE_EQ(q[elbow], -0.5);
  // Joints never named stay at the posture.
  EXPECT_DOUBLE_EQ(q[r.model.joint_index("LARM_JOINT0")], r.posture[r.model.joint_index("LARM_JOINT0")]);
}

TEST(WalkingUpperBody, KeyframeErrorsNameTheLineAndTheJoint) {
  EXPECT_EQ(
      error_of("keyframes:\n  - { time: 0.0, joints: { RLEG_JOINT3: 0.5 } }\n"),
      "/cfg/arms.yaml:line 2: keyframes[0].joints.RLEG_JOINT3: a leg joint; the legs follow the footsteps "
      "(leg IK)");
  EXPECT_EQ(error_of("keyframes:\n  - { time: 0.0, joints: { RARM_JOINT9: 0.5 } }\n"),
            "/cfg/arms.yaml:line 2: keyframes[0].joints.RARM_JOINT9: no joint of that name in the model");
  EXPECT_EQ(error_of("keyframes:\n  - { time: 0.0, joints: { RARM_JOINT3: 0.5 } }\n"),
            "/cfg/arms.yaml:line 2: keyframes[0].joints.RARM_JOINT3: 0.5 rad is outside the joint limits "
            "[-2.3911, 0.0349066]");
  EXPECT_EQ(
      error_of("keyframes:\n  - { time: 1.0 }\n  - { time: 1.0 }\n"),
      "/cfg/arms.yaml:line 3: keyframes[1].time: expected a time >= 0 after the previous keyframe's (1 s), "
      "found 1");
  EXPECT_EQ(
      error_of("keyframes:\n  - { time: 0.0, joint: {} }\n"),
      "/cfg/arms.yaml:line 2: unknown key 'keyframes[0].joint' (did you mean 'joints'? expected one of: "
      "time, joints)");
  EXPECT_EQ(error_of("keyframes:\n  - { joints: {} }\n"),
            "/cfg/arms.yaml:line 2: missing required key 'keyframes[0].time'");
  EXPECT_EQ(error_of("keyframes:\n  - { time: 0.0, joints: { RARM_JOINT3: -0.5, RARM_JOINT3: -0.6 } }\n"),
            "/cfg/arms.yaml:line 2: duplicate key 'keyframes[0].joints.RARM_JOINT3' (first on line 2)");
  EXPECT_EQ(error_of("keyframes:\n  - { time: 0.0, joints: { RARM_JOINT3: low } }\n"),
            "/cfg/arms.yaml:line 2: keyframes[0].joints.RARM_JOINT3: expected a number, found 'low'");
  EXPECT_EQ(
      error_of("keyframes:\n  - { time: 0.0, joints: [RARM_JOINT3] }\n"),
      "/cfg/arms.yaml:line 2: keyframes[0].joints: expected a mapping (key: value lines), found a list");
  EXPECT_EQ(error_of("frames: []\n"),
            "/cfg/arms.yaml:line 1: unknown key 'frames' (expected one of: keyframes)");
}

// A joint sequence (what the walk stage reads from a .pos) is interpolated linearly and held after its end.
TEST(WalkingUpperBody, SampledJointsAreInterpolatedLinearly) {
  const Hrp2& r = robot();
  Eigen::MatrixXd angles = Eigen::MatrixXd::Zero(3, r.model.nj);
  angles(1, 16) = -0.2;
  angles(2, 16) = -0.4;
  const UpperBodyTrajectory arms = UpperBodyTrajectory::sampled({0.0, 0.01, 0.02}, angles);  // 100 Hz
  Eigen::VectorXd q(r.model.nj);
  // Linear interpolation at the midpoint of two samples: one rounding (1e-15).
  arms.at(0.005, q);  // a 200 Hz sample between two 100 Hz ones
  EXPECT_NEAR(q[16], -0.1, 1e-15);
  arms.at(0.015, q);
  EXPECT_NEAR(q[16], -0.3, 1e-15);
  arms.at(1.0, q);
  EXPECT_DOUBLE_EQ(q[16], -0.4);
}

// The whole-body retarget's coarse reference is joined by cubic Hermite pieces: on unevenly spaced samples
// of a parabola the three-point tangents are its exact derivatives, so every point between inner samples is
// the parabola's (to rounding), and the velocity is continuous where linear pieces would jump at each sample.
TEST(WalkingUpperBody, CubicPiecesFollowAParabolaWithContinuousVelocity) {
  const std::vector<double> times = {0.0, 0.017, 0.030, 0.052, 0.060};  // uneven, as after a partial stretch
  auto parabola = [](double t) { return 0.3 - 2.0 * t + 40.0 * t * t; };
  Eigen::MatrixXd angles = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(times.size()), 3);
  for (std::size_t i = 0; i < times.size(); ++i) angles(static_cast<Eigen::Index>(i), 1) = parabola(times[i]);
  const UpperBodyTrajectory arms = UpperBodyTrajectory::cubic(times, angles);
  Eigen::VectorXd q(3);
  // Inner pieces only: the end tangents are one-sided chords, exact for a line, not for a parabola.
  for (double t = 0.0175; t < 0.052; t += 0.0011) {
    arms.at(t, q);
    EXPECT_NEAR(q[1], parabola(t), 1e-14) << "t = " << t;
    EXPECT_EQ(q[0], 0.0);
  }
  // Velocity on either side of each inner sample by second-order one-sided differences (exact on the
  // quadratics they see; the pieces are cubics whose third derivative stays below 1e5 here, so truncation
  // h^2 |q'''| / 3 < 1e-7, rounding 4e-16 / h < 1e-9): equal to 1e-6, where linear pieces differ by the
  // change of chord slope, 80 * (average interval) ~ 1.
  for (std::size_t i = 1; i + 1 < times.size(); ++i) {
    const double h = 1e-6;
    Eigen::VectorXd m2(3), m1(3), p0(3), p1(3), p2(3);
    arms.at(times[i] - 2 * h, m2);
    arms.at(times[i] - h, m1);
    arms.at(times[i], p0);
    arms.at(times[i] + h, p1);
    arms.at(times[i] + 2 * h, p2);
    const double left = (3 * p0[1] - 4 * m1[1] + m2[1]) / (2 * h);
    const double right = (-3 * p0[1] + 4 * p1[1] - p2[1]) / (2 * h);
    EXPECT_NEAR(left, right, 1e-6) << "sample " << i;
  }
  arms.at(1.0, q);
  EXPECT_DOUBLE_EQ(q[1], parabola(0.060));
}

TEST(WalkingUpperBody, AMissingKeyframeFileIsAnInputError) {
  const Hrp2& r = robot();
  const auto missing = test::unique_temp_path("walking_upper_body") / "missing.yaml";
  EXPECT_THROW(load_upper_body_keyframes(missing, r.model, r.posture, r.legs), InputError);
}

}  // namespace
}  // namespace mimic::walking
