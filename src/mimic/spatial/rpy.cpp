#include "mimic/spatial/rpy.hpp"

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>

namespace mimic::spatial {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

// `angle` + 2 pi k nearest to `near`.
double nearest_equivalent(double angle, double near) {
  return angle + kTwoPi * std::round((near - angle) / kTwoPi);
}

}  // namespace

Eigen::Matrix3d rpy_to_rotation(const Eigen::Vector3d& rpy) {
  return (Eigen::AngleAxisd(rpy.z(), Eigen::Vector3d::UnitZ()) *
          Eigen::AngleAxisd(rpy.y(), Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(rpy.x(), Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}

Eigen::Vector3d rotation_to_rpy(const Eigen::Matrix3d& r) {
  // R = Rz(y) Ry(p) Rx(r): first column (cy cp, sy cp, -sp). Yaw from the first column; then undo the
  // yaw and read pitch and roll from Rz(-y) R = Ry(p) Rx(r), which stays well defined at cp = 0.
  const double yaw = std::atan2(r(1, 0), r(0, 0));
  const double sy = std::sin(yaw);
  const double cy = std::cos(yaw);
  const double pitch = std::atan2(-r(2, 0), cy * r(0, 0) + sy * r(1, 0));
  const double roll = std::atan2(sy * r(0, 2) - cy * r(1, 2), cy * r(1, 1) - sy * r(0, 1));
  return {roll, pitch, yaw};
}

Eigen::Vector3d rotation_to_rpy(const Eigen::Matrix3d& rotation, const Eigen::Vector3d& near) {
  const Eigen::Vector3d rpy = rotation_to_rpy(rotation);
  return {nearest_equivalent(rpy.x(), near.x()), nearest_equivalent(rpy.y(), near.y()),
          nearest_equivalent(rpy.z(), near.z())};
}

void unwrap_angles(Eigen::Ref<Eigen::MatrixXd> angles) {
  for (Eigen::Index c = 0; c < angles.cols(); ++c) {
    for (Eigen::Index k = 1; k < angles.rows(); ++k) {
      angles(k, c) = nearest_equivalent(angles(k, c), angles(k - 1, c));
    }
  }
}

}  // namespace mimic::spatial
