// The world <-> waist ZMP conversion of the .zmp file.
#include "mimic/io/zmp_frame.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "mimic/spatial/rpy.hpp"

namespace mimic::io {
namespace {

constexpr double kPi = std::numbers::pi;
using spatial::rpy_to_rotation;

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
