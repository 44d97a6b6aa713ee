// Fixed-size Eigen types used by the spatial algebra, and the skew (cross-product) operator.
// Everything here lives on the stack: no spatial type ever allocates.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace mimic::spatial {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Quat = Eigen::Quaterniond;

// [x]: the matrix with [x] y = x × y (seed 000, appendix "skew operator").
inline Mat3 skew(const Vec3& x) {
  Mat3 s;
  s << 0.0, -x.z(), x.y(),  //
      x.z(), 0.0, -x.x(),   //
      -x.y(), x.x(), 0.0;
  return s;
}

// Inverse of skew() on the skew-symmetric part: unskew(skew(x)) == x; for a general matrix A it returns
// the vector of (A - A^T) / 2.
inline Vec3 unskew(const Mat3& a) {
  return 0.5 * Vec3(a(2, 1) - a(1, 2), a(0, 2) - a(2, 0), a(1, 0) - a(0, 1));
}

}  // namespace mimic::spatial
