#include "mimic/stability/leg_ik_closed_form.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>

#include "mimic/spatial/explog.hpp"

namespace mimic::stability {

using spatial::Mat3;
using spatial::SE3;
using spatial::Vec3;

namespace {

constexpr int kMaxNewtonSteps = 30;
// How exactly a leg must have the shape for the closed form (m and rad, on the placements): a URDF writes
// its offsets with a few digits, so a zero is a zero; anything larger is a different leg.
constexpr double kShapeTolerance = 1e-12;

Mat3 rotation_x(double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  Mat3 r;
  r << 1, 0, 0, 0, c, -s, 0, s, c;
  return r;
}

}  // namespace

std::optional<ClosedFormLeg> ClosedFormLeg::of(const LegChain& chain) {
  using model::AxisKind;
  constexpr std::array<AxisKind, kLegJoints> kAxes{AxisKind::kZ, AxisKind::kX, AxisKind::kY,
                                                   AxisKind::kY, AxisKind::kY, AxisKind::kX};
  if (chain.axis_kinds != kAxes) return std::nullopt;
  const auto& p = chain.placements;
  for (std::size_t i = 1; i < kLegJoints; ++i)
    if (!p[i].R.isApprox(Mat3::Identity(), kShapeTolerance)) return std::nullopt;
  const auto zero = [](double x) { return std::abs(x) <= kShapeTolerance; };
  const bool hip_axes_intersect = zero(p[1].p.x()) && zero(p[1].p.y());
  const bool pitch_offset_along_axis = zero(p[2].p.x()) && zero(p[2].p.z());
  const bool knee_and_ankle_below =
      zero(p[3].p.x()) && zero(p[3].p.y()) && zero(p[4].p.x()) && zero(p[4].p.y());
  const bool ankle_axes_intersect = zero(p[5].p.norm());
  if (!(hip_axes_intersect && pitch_offset_along_axis && knee_and_ankle_below && ankle_axes_intersect))
    return std::nullopt;
  ClosedFormLeg leg;
  // The hip centre (yaw/roll intersection) seen from the hip pitch joint, along the pitch axis.
  leg.lateral_offset_ = -p[2].p.y();
  leg.thigh_ = p[3].p.norm();
  leg.shank_ = p[4].p.norm();
  if (leg.thigh_ <= 0.0 || leg.shank_ <= 0.0) return std::nullopt;
  return leg;
}

int ClosedFormLeg::branches(const LegChain& chain, const SE3& hip_to_ankle,
                            std::array<LegAngles, 4>& out) const {
  // hip_to_ankle: ankle-roll body in the hip-yaw joint frame (at zero yaw). r = hip centre - ankle in
  // ankle coordinates; the hip centre is the hip-roll joint origin.
  const Vec3 hip_centre = chain.placements[1].p;
  const Vec3 r = hip_to_ankle.R.transpose() * (hip_centre - hip_to_ankle.p);
  const double d = lateral_offset_;
  const double rho2 = r.y() * r.y() + r.z() * r.z();
  if (rho2 < d * d) return 0;
  const double a = thigh_, b = shank_;
  int count = 0;
  for (const double z : {std::sqrt(rho2 - d * d), -std::sqrt(rho2 - d * d)}) {
    // Knee: |(x, z)|^2 = A^2 + B^2 + 2 A B cos q3.
    const double cos_knee = (r.x() * r.x() + z * z - a * a - b * b) / (2.0 * a * b);
    // Rounding may push a straight or folded leg a few ulps past +-1; beyond 1e-12 it is out of reach.
    if (cos_knee > 1.0 + 1e-12 || cos_knee < -1.0 - 1e-12) continue;
    for (const double knee_sign : {1.0, -1.0}) {
      LegAngles& q = out[static_cast<std::size_t>(count++)];
      // Ankle roll: Rx(q5) r = (x, d, z).
      q(5) = std::atan2(z, d) - std::atan2(r.z(), r.y());
      q(3) = knee_sign * std::acos(std::clamp(cos_knee, -1.0, 1.0));
      // Ankle pitch: z + i(-x) = (B + A e^{i q3}) e^{i q4}.
      q(4) = std::atan2(-r.x(), z) - std::atan2(a * std::sin(q(3)), b + a * std::cos(q(3)));
      // Hip: Rz(q0) Rx(q1) Ry(q2 + q3 + q4) = (hip -> ankle rotation) Rx(-q5).
      const Mat3 m = hip_to_ankle.R * rotation_x(-q(5));
      q(0) = std::atan2(-m(0, 1), m(1, 1));
      q(1) = std::atan2(m(2, 1), -m(0, 1) * std::sin(q(0)) + m(1, 1) * std::cos(q(0)));
      q(2) = std::atan2(-m(2, 0), m(2, 2)) - q(3) - q(4);
    }
  }
  return count;
}

LegIkResult ClosedFormLeg::solve(const LegChain& chain, const SE3& root, const SE3& sole,
                                 const LegAngles& seed) const {
  LegIkResult result;
  const SE3 hip = root * chain.placements[0];
  const SE3 ankle = sole * chain.sole_in_ankle.inverse();
  std::array<LegAngles, 4> candidates;
  const int count = branches(chain, hip.act_inv(ankle), candidates);
  if (count == 0) {
    result.status = LegIkStatus::kOutOfReach;
    return result;
  }
  // The branch within the limits nearest the seed; if none is within, the nearest one (reported).
  int best = -1;
  bool best_in_limits = false;
  double best_distance = 0.0;
  for (int i = 0; i < count; ++i) {
    LegAngles& q = candidates[static_cast<std::size_t>(i)];
    const bool in_limits = chain.wrap_and_check_limits(q) < 0;
    const double distance = (q - seed).squaredNorm();
    if (best < 0 || (in_limits && !best_in_limits) ||
        (in_limits == best_in_limits && distance < best_distance)) {
      best = i;
      best_in_limits = in_limits;
      best_distance = distance;
    }
  }
  LegAngles q = candidates[static_cast<std::size_t>(best)];

  // Newton polish on the exact chain (no step for HRP-2's geometry, where the closed form is exact up to
  // rounding).
  LegJacobian jacobian;
  for (int step = 0; step <= kMaxNewtonSteps; ++step) {
    const SE3 current = chain.sole_pose_and_jacobian(root, q, jacobian);
    result.position_error = (current.p - sole.p).norm();
    result.rotation_error = spatial::log3(current.R.transpose() * sole.R).norm();
    if ((result.position_error <= 1e-13 && result.rotation_error <= 1e-13) || step == kMaxNewtonSteps) break;
    const spatial::Motion error = spatial::log6(current.act_inv(sole));
    const LegAngles dq = Eigen::PartialPivLU<Eigen::Matrix<double, 6, 6>>(jacobian).solve(error.to_vector());
    if (!dq.allFinite()) break;
    q += dq;
    result.iterations = step + 1;
  }
  if (result.position_error > kLegIkTolerance || result.rotation_error > kLegIkTolerance) {
    result.angles = q;
    result.status = LegIkStatus::kNotConverged;
    return result;
  }
  result.limit_joint = chain.wrap_and_check_limits(q);
  result.angles = q;
  result.status = result.limit_joint < 0 ? LegIkStatus::kSolved : LegIkStatus::kJointLimit;
  return result;
}

}  // namespace mimic::stability
