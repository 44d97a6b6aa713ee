#include "mimic/stability/leg_chain.hpp"

#include <cmath>

#include "mimic/core/error.hpp"
#include "mimic/spatial/types.hpp"

namespace mimic::stability {

using spatial::Mat3;
using spatial::SE3;
using spatial::Vec3;

namespace {

// Rotation of a revolute joint about its own axis. The axis-aligned kinds are written out (HRP-2's legs):
// their products are the ones the leg IK has always computed, so its results do not move by rounding.
Mat3 axis_rotation(model::AxisKind kind, const Vec3& axis, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  Mat3 r;
  switch (kind) {
    case model::AxisKind::kX:
      r << 1, 0, 0, 0, c, -s, 0, s, c;
      break;
    case model::AxisKind::kY:
      r << c, 0, s, 0, 1, 0, -s, 0, c;
      break;
    case model::AxisKind::kZ:
      r << c, -s, 0, s, c, 0, 0, 0, 1;
      break;
    case model::AxisKind::kGeneric: {
      const Mat3 u = spatial::skew(axis);
      r = Mat3::Identity() + s * u + (1.0 - c) * u * u;  // Rodrigues
      break;
    }
  }
  return r;
}

}  // namespace

LegChain LegChain::of(const model::Model& model, const std::string& sole_frame) {
  LegChain chain;
  chain.sole_frame = sole_frame;
  const model::Frame& frame = model.frames[static_cast<std::size_t>(model.frame_index(sole_frame))];
  chain.sole_in_ankle = frame.placement;
  // Walk from the foot body up to the root: six bodies, the hip's first once reversed.
  std::array<int, kLegJoints> bodies{};
  int body = frame.body;
  for (int i = kLegJoints - 1; i >= 0; --i) {
    if (body <= 0)
      throw ModelError(model.source_path + ": frame " + sole_frame + " hangs from fewer than six joints");
    bodies[static_cast<std::size_t>(i)] = body;
    body = model.parents[static_cast<std::size_t>(body)];
  }
  if (body != 0)
    throw ModelError(
        model.source_path + ": frame " + sole_frame +
        " is not six joints below the root body (a leg is six joints from the hip to the ankle)");
  for (std::size_t i = 0; i < kLegJoints; ++i) {
    const auto b = static_cast<std::size_t>(bodies[i]);
    if (model.joint_types[b] != model::JointType::kRevolute)
      throw ModelError(model.source_path + ": joint " + model.joint_names[b - 1] + " of the leg of " +
                       sole_frame + " must be revolute");
    chain.joints[i] = model::Model::joint_of_body(bodies[i]);
    chain.placements[i] = model.joint_placements[b];
    chain.axis_kinds[i] = model.axis_kinds[b];
    chain.axes[i] = model.axes[b];
    chain.lower[i] = model.lower_limit(chain.joints[i]);
    chain.upper[i] = model.upper_limit(chain.joints[i]);
  }
  return chain;
}

SE3 LegChain::sole_pose(const SE3& root, const LegAngles& angles) const {
  SE3 t = root;
  for (std::size_t i = 0; i < kLegJoints; ++i) {
    t = t * placements[i];
    t.R = t.R * axis_rotation(axis_kinds[i], axes[i], angles(static_cast<Eigen::Index>(i)));
  }
  return t * sole_in_ankle;
}

SE3 LegChain::sole_pose_and_jacobian(const SE3& root, const LegAngles& angles, LegJacobian& jacobian) const {
  std::array<Vec3, kLegJoints> axis_world, origin_world;
  SE3 t = root;
  for (std::size_t i = 0; i < kLegJoints; ++i) {
    t = t * placements[i];
    t.R = t.R * axis_rotation(axis_kinds[i], axes[i], angles(static_cast<Eigen::Index>(i)));
    axis_world[i] = t.R * axes[i];
    origin_world[i] = t.p;
  }
  const SE3 sole = t * sole_in_ankle;
  for (std::size_t i = 0; i < kLegJoints; ++i) {
    const auto c = static_cast<Eigen::Index>(i);
    jacobian.block<3, 1>(0, c) = sole.R.transpose() * axis_world[i].cross(sole.p - origin_world[i]);
    jacobian.block<3, 1>(3, c) = sole.R.transpose() * axis_world[i];
  }
  return sole;
}

int LegChain::wrap_and_check_limits(LegAngles& q) const {
  int outside = -1;
  for (int i = kLegJoints - 1; i >= 0; --i) {
    const auto k = static_cast<std::size_t>(i);
    const double mid = 0.5 * (lower[k] + upper[k]);
    if (std::isfinite(mid)) q(i) = mid + std::remainder(q(i) - mid, 2.0 * M_PI);
    // 1e-9 rad of slack: a pose computed from an in-limit configuration comes back within rounding.
    if (q(i) < lower[k] - 1e-9 || q(i) > upper[k] + 1e-9) outside = i;
  }
  return outside;
}

double LegChain::length() const {
  double sum = sole_in_ankle.p.norm();
  for (std::size_t i = 3; i < kLegJoints; ++i) sum += placements[i].p.norm();
  return sum;
}

}  // namespace mimic::stability
