// Limits after safety factors (model/limits.hpp): the angle range shrinks about its middle, so both ends
// keep the same margin, and velocity and torque limits scale. The values are exact in binary floating
// point (powers of two and small integers), so most comparisons are exact; the HRP-2 case uses 1e-15
// relative, one rounding of the middle +- half-range reconstruction.
#include "mimic/model/limits.hpp"

#include <gtest/gtest.h>

#include "mimic/model/model.hpp"
#include "support/shared_data.hpp"

namespace mimic::model {
namespace {

// scaled_limits reads only the per-joint limit vectors, so a model with just those filled is enough.
Model two_joints() {
  Model m;
  m.nj = 2;
  m.lower_limit = Eigen::Vector2d(-1.0, 0.0);
  m.upper_limit = Eigen::Vector2d(3.0, 2.0);
  m.velocity_limit = Eigen::Vector2d(4.0, 8.0);
  m.effort_limit = Eigen::Vector2d(100.0, 50.0);
  return m;
}

TEST(ScaledLimits, DefaultFactorsKeepTheModelLimits) {
  const Model m = two_joints();
  const ScaledLimits limits = scaled_limits(m, LimitFactors{});
  EXPECT_EQ(limits.lower, m.lower_limit);
  EXPECT_EQ(limits.upper, m.upper_limit);
  EXPECT_EQ(limits.velocity, m.velocity_limit);
  EXPECT_EQ(limits.torque, m.effort_limit);
}

TEST(ScaledLimits, AnglesShrinkAboutTheMiddleRatesScale) {
  const Model m = two_joints();
  const ScaledLimits limits =
      scaled_limits(m, {.angle_factor = 0.5, .velocity_factor = 0.25, .torque_factor = 0.75});
  // Joint 0: middle 1, half range 2 -> [0, 2]; joint 1: middle 1, half range 1 -> [0.5, 1.5].
  EXPECT_EQ(limits.lower, Eigen::Vector2d(0.0, 0.5));
  EXPECT_EQ(limits.upper, Eigen::Vector2d(2.0, 1.5));
  EXPECT_EQ(limits.velocity, Eigen::Vector2d(1.0, 2.0));
  EXPECT_EQ(limits.torque, Eigen::Vector2d(75.0, 37.5));
  // The same margin at both ends of each range.
  const Eigen::Vector2d low_margin = limits.lower - m.lower_limit, high_margin = m.upper_limit - limits.upper;
  EXPECT_EQ(low_margin, high_margin);
}

TEST(ScaledLimits, Hrp2RangesStayNestedInsideTheUrdfLimits) {
  const Model m = load_urdf(test::hrp2_urdf().string(), LoadOptions::hrp2());
  const ScaledLimits limits =
      scaled_limits(m, {.angle_factor = 0.9, .velocity_factor = 0.9, .torque_factor = 0.9});
  ASSERT_EQ(limits.lower.size(), m.nj);
  for (int j = 0; j < m.nj; ++j) {
    SCOPED_TRACE(m.joint_names[j]);
    EXPECT_GT(limits.lower[j], m.lower_limit[j]);
    EXPECT_LT(limits.upper[j], m.upper_limit[j]);
    EXPECT_NEAR(limits.upper[j] - limits.lower[j], 0.9 * (m.upper_limit[j] - m.lower_limit[j]),
                1e-15 * (m.upper_limit[j] - m.lower_limit[j]));
    EXPECT_DOUBLE_EQ(limits.velocity[j], 0.9 * m.velocity_limit[j]);
    EXPECT_DOUBLE_EQ(limits.torque[j], 0.9 * m.effort_limit[j]);
  }
}

}  // namespace
}  // namespace mimic::model
