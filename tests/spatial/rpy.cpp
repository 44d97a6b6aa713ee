// Roll-pitch-yaw conventions of hrpsys (R = Rz(yaw) Ry(pitch) Rx(roll)): conversions and unwrapping.
#include "mimic/spatial/rpy.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

namespace mimic::spatial {
namespace {

constexpr double kPi = std::numbers::pi;

// Elementary rotations written out, independent of Eigen's AngleAxis used by the code under test.
Eigen::Matrix3d rot_x(double a) {
  Eigen::Matrix3d r;
  r << 1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a);
  return r;
}
Eigen::Matrix3d rot_y(double a) {
  Eigen::Matrix3d r;
  r << std::cos(a), 0, std::sin(a), 0, 1, 0, -std::sin(a), 0, std::cos(a);
  return r;
}
Eigen::Matrix3d rot_z(double a) {
  Eigen::Matrix3d r;
  r << std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1;
  return r;
}

TEST(Rpy, IsRzRyRx) {
  const Eigen::Vector3d rpy(0.3, -0.7, 2.1);
  // Same products of the same sines and cosines in another order: a few ulp.
  EXPECT_TRUE(rpy_to_rotation(rpy).isApprox(rot_z(2.1) * rot_y(-0.7) * rot_x(0.3), 1e-14));
  // Default isApprox precision (1e-12 relative): exact up to the rounding of cos(pi / 2) ~ 6e-17.
  // Roll alone turns +y into +z; yaw alone turns +x into +y.
  EXPECT_TRUE(
      (rpy_to_rotation({kPi / 2, 0, 0}) * Eigen::Vector3d::UnitY()).isApprox(Eigen::Vector3d::UnitZ()));
  EXPECT_TRUE(
      (rpy_to_rotation({0, 0, kPi / 2}) * Eigen::Vector3d::UnitX()).isApprox(Eigen::Vector3d::UnitY()));
}

TEST(Rpy, RoundTripsInsideTheUsualRanges) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> roll_yaw(-kPi + 1e-9, kPi - 1e-9);
  std::uniform_real_distribution<double> pitch(-kPi / 2 + 1e-6, kPi / 2 - 1e-6);
  for (int i = 0; i < 2000; ++i) {
    const Eigen::Vector3d rpy(roll_yaw(rng), pitch(rng), roll_yaw(rng));
    const Eigen::Vector3d back = rotation_to_rpy(rpy_to_rotation(rpy));
    // Roll and yaw come from atan2 of entries scaled by cos(pitch) >= sin(1e-6): their error grows as
    // eps / cos(pitch), up to ~2e-10 at the edge of the range (measured 4.7e-13 relative on these
    // samples). A convention error is O(1).
    ASSERT_TRUE(back.isApprox(rpy, 1e-9)) << rpy.transpose() << " -> " << back.transpose();
  }
}

TEST(Rpy, GimbalLockStillReproducesTheRotation) {
  for (double pitch : {kPi / 2, -kPi / 2, kPi / 2 - 1e-12}) {
    const Eigen::Matrix3d r = rpy_to_rotation({0.4, pitch, -1.2});
    const Eigen::Vector3d rpy = rotation_to_rpy(r);
    // Measured: |pitch| - pi / 2 = 1e-12 for the last input (its own distance to the lock), 2e-16
    // otherwise. 1e-9: an asin-based pitch would lose ~sqrt(eps) = 1.5e-8 next to the lock.
    EXPECT_NEAR(std::abs(rpy.y()), kPi / 2, 1e-9);
    // The rotation is reproduced to round-off (measured 2.6e-16 relative).
    EXPECT_TRUE(rpy_to_rotation(rpy).isApprox(r, 1e-12)) << rpy.transpose();
  }
}

TEST(Rpy, NearestEquivalentAndUnwrap) {
  const Eigen::Matrix3d r = rpy_to_rotation({0.1, 0.2, -3.1});
  const Eigen::Vector3d near = rotation_to_rpy(r, {0.1, 0.2, 3.1});
  // atan2 and a 2 pi shift of values ~3: a few ulp (4.4e-16 each).
  EXPECT_NEAR(near.z(), 2 * kPi - 3.1, 1e-12);
  EXPECT_NEAR(near.x(), 0.1, 1e-12);
  EXPECT_TRUE(rpy_to_rotation(near).isApprox(r, 1e-12));

  Eigen::MatrixXd angles(5, 2);
  angles << 3.0, 0.0, 3.1, 0.1, -3.1, 0.2, -3.0, 0.3, 3.1, 0.4;
  unwrap_angles(angles);
  // One 2 pi shift of values ~3: a few ulp.
  EXPECT_NEAR(angles(2, 0), 2 * kPi - 3.1, 1e-12);
  EXPECT_NEAR(angles(3, 0), 2 * kPi - 3.0, 1e-12);
  EXPECT_NEAR(angles(4, 0), 3.1, 1e-12);  // back down by 2 pi relative to sample 3
  EXPECT_TRUE(angles.col(1).isApprox(Eigen::VectorXd::LinSpaced(5, 0.0, 0.4), 1e-15));  // untouched
}

}  // namespace
}  // namespace mimic::spatial
