// Roll-pitch-yaw conventions of hrpsys and the world <-> waist ZMP conversion of the .zmp file.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "mimic/io/rpy.hpp"
#include "mimic/io/zmp_frame.hpp"

namespace mimic::io {
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

TEST(ZmpFrame, StandingWaistGivesMinusTheWaistHeight) {
  // HRP-2 half-sitting: BODY at z = 0.6487 (hrp2.md section 4), ZMP on the floor under it.
  const Eigen::Vector3d waist(0.0, 0.0, 0.6487);
  const Eigen::Vector3d zmp = zmp_world_to_waist({0.01, 0.0, 0.0}, waist, Eigen::Matrix3d::Identity());
  // A subtraction with an identity rotation: default isApprox (1e-12 relative) is rounding only.
  EXPECT_TRUE(zmp.isApprox(Eigen::Vector3d(0.01, 0.0, -0.6487)));
}

TEST(ZmpFrame, RotatedWaistUsesBodyAxes) {
  // Waist yawed by +90 degrees: a ZMP 0.1 m ahead in world x is 0.1 m to the waist's right (-y).
  const Eigen::Vector3d waist(1.0, 2.0, 0.6);
  const Eigen::Matrix3d yaw90 = rpy_to_rotation({0, 0, kPi / 2});
  const Eigen::Vector3d zmp = zmp_world_to_waist({1.1, 2.0, 0.0}, waist, yaw90);
  // One 3x3 rotation of O(1) vectors: round-off, cos(pi / 2) ~ 6e-17 included.
  EXPECT_TRUE(zmp.isApprox(Eigen::Vector3d(0.0, -0.1, -0.6), 1e-12)) << zmp.transpose();
  EXPECT_TRUE(zmp_waist_to_world(zmp, waist, yaw90).isApprox(Eigen::Vector3d(1.1, 2.0, 0.0), 1e-12));
}

TEST(ZmpFrame, SequencesRoundTrip) {
  WaistSequence waist;
  waist.times = {0, 0.005, 0.01};
  waist.position = Eigen::MatrixXd::Random(3, 3);
  waist.rpy = 0.3 * Eigen::MatrixXd::Random(3, 3);
  const Eigen::MatrixXd world = Eigen::MatrixXd::Random(3, 3);
  const ZmpSequence zmp = zmp_sequence_from_world(world, waist);
  EXPECT_EQ(zmp.times, waist.times);
  for (int k = 0; k < 3; ++k) {
    const Eigen::Vector3d expected = rpy_to_rotation(waist.rpy.row(k).transpose()).transpose() *
                                     (world.row(k) - waist.position.row(k)).transpose();
    // The same rotation computed the same way: round-off of one matrix product.
    EXPECT_TRUE(zmp.zmp.row(k).transpose().isApprox(expected, 1e-12));
  }
  EXPECT_TRUE(zmp_sequence_in_world(zmp, waist).isApprox(world, 1e-12));
  EXPECT_THROW(zmp_sequence_from_world(Eigen::MatrixXd::Zero(2, 3), waist), std::invalid_argument);
}

}  // namespace
}  // namespace mimic::io
