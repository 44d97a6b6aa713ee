// Exponential and logarithm maps. The closed forms divide by powers of the angle (and by sin(angle) in the
// logarithm); below the thresholds their Taylor series is used instead, and log3 takes the rotation axis
// from the symmetric part of R when the angle is past pi/2, where sin(angle) loses relative precision.
#include "mimic/spatial/explog.hpp"

#include <algorithm>
#include <cmath>

namespace mimic::spatial {
namespace {

// Below this angle the series of (1 - cos t)/t^2, (t - sin t)/t^3 etc. truncated after t^4 are exact to
// machine precision (next terms ~ t^6 / 5040 < 1e-17), and the closed forms start to cancel.
constexpr double kSmallAngle = 1e-2;

struct RodriguesCoefficients {
  double a;  // sin(t) / t
  double b;  // (1 - cos t) / t^2
  double c;  // (t - sin t) / t^3
};

RodriguesCoefficients rodrigues(double t) {
  const double t2 = t * t;
  if (t < kSmallAngle) {
    return {1.0 - t2 / 6.0 * (1.0 - t2 / 20.0), 0.5 - t2 / 24.0 * (1.0 - t2 / 30.0),
            1.0 / 6.0 - t2 / 120.0 * (1.0 - t2 / 42.0)};
  }
  const double s = std::sin(t);
  const double half = std::sin(0.5 * t);
  return {s / t, 2.0 * half * half / t2, (t - s) / (t2 * t)};
}

// (1/t^2 - (1 + cos t) / (2 t sin t)), the W^2 coefficient of the inverse left/right Jacobians of SO(3);
// written with cot(t/2) so that it stays finite at t = pi.
double inverse_jacobian_coefficient(double t) {
  const double t2 = t * t;
  if (t < kSmallAngle) return 1.0 / 12.0 + t2 / 720.0 * (1.0 + t2 / 42.0);
  return 1.0 / t2 - std::cos(0.5 * t) / (2.0 * t * std::sin(0.5 * t));
}

}  // namespace

Mat3 exp3(const Vec3& w) {
  const double t = w.norm();
  const RodriguesCoefficients k = rodrigues(t);
  const Mat3 W = skew(w);
  return Mat3::Identity() + k.a * W + k.b * W * W;
}

Vec3 log3(const Mat3& R) {
  const Vec3 s = unskew(R);  // sin(t) * axis
  const double sin_t = s.norm();
  const double cos_t = std::clamp(0.5 * (R.trace() - 1.0), -1.0, 1.0);
  const double t = std::atan2(sin_t, cos_t);  // accurate over the whole [0, pi]
  if (cos_t > 0.0) {
    // t < pi/2: sin(t) carries the axis with full relative precision; t / sin(t) -> 1 as t -> 0.
    if (sin_t == 0.0) return Vec3::Zero();
    return (t / sin_t) * s;
  }
  // t >= pi/2: R + R^T = 2 cos(t) I + 2 (1 - cos t) a a^T; take the largest diagonal entry of a a^T
  // (>= 1/3) for the axis, and the sign from s (only its sign matters, so its tiny size near pi is harmless).
  const Mat3 aat = (0.5 * (R + R.transpose()) - cos_t * Mat3::Identity()) / (1.0 - cos_t);
  int k = 0;
  aat.diagonal().maxCoeff(&k);
  Vec3 axis = aat.col(k) / std::sqrt(aat(k, k));
  axis.normalize();
  if (axis.dot(s) < 0.0) axis = -axis;
  return t * axis;
}

SE3 exp6(const Motion& V) {
  const double t = V.w.norm();
  const RodriguesCoefficients k = rodrigues(t);
  const Mat3 W = skew(V.w);
  const Mat3 W2 = W * W;
  const Mat3 R = Mat3::Identity() + k.a * W + k.b * W2;
  const Mat3 left_jacobian = Mat3::Identity() + k.b * W + k.c * W2;
  return SE3(R, left_jacobian * V.v);
}

Motion log6(const SE3& M) {
  const Vec3 w = log3(M.R);
  const Mat3 W = skew(w);
  const Mat3 left_jacobian_inverse =
      Mat3::Identity() - 0.5 * W + inverse_jacobian_coefficient(w.norm()) * W * W;
  return Motion(left_jacobian_inverse * M.p, w);
}

Mat3 jexp3(const Vec3& w) {
  const RodriguesCoefficients k = rodrigues(w.norm());
  const Mat3 W = skew(w);
  return Mat3::Identity() - k.b * W + k.c * W * W;
}

Mat3 jlog3(const Vec3& w) {
  const Mat3 W = skew(w);
  return Mat3::Identity() + 0.5 * W + inverse_jacobian_coefficient(w.norm()) * W * W;
}

}  // namespace mimic::spatial
