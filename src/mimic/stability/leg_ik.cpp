#include "mimic/stability/leg_ik.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/spatial/explog.hpp"

namespace mimic::stability {

using spatial::Mat3;
using spatial::SE3;
using spatial::Vec3;

namespace {

constexpr double kSolvedTolerance = 1e-9;  // m and rad: what "solved" means (Newton reaches ~1e-15)
constexpr int kMaxNewtonSteps = 30;

Mat3 axis_rotation(model::AxisKind kind, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  Mat3 r;
  switch (kind) {
    case model::AxisKind::kX:
      r << 1, 0, 0, 0, c, -s, 0, s, c;
      break;
    case model::AxisKind::kY:
      r << c, 0, s, 0, 1, 0, -s, 0, c;
      break;
    default:  // kZ (the constructor admits no other kind)
      r << c, -s, 0, s, c, 0, 0, 0, 1;
      break;
  }
  return r;
}

constexpr std::array<model::AxisKind, kLegJoints> kLegAxes{model::AxisKind::kZ, model::AxisKind::kX,
                                                           model::AxisKind::kY, model::AxisKind::kY,
                                                           model::AxisKind::kY, model::AxisKind::kX};

Vec3 unit_axis(model::AxisKind kind) {
  return kind == model::AxisKind::kX   ? Vec3::UnitX()
         : kind == model::AxisKind::kY ? Vec3::UnitY()
                                       : Vec3::UnitZ();
}

}  // namespace

const char* to_string(LegIkStatus status) {
  switch (status) {
    case LegIkStatus::kSolved:
      return "solved";
    case LegIkStatus::kOutOfReach:
      return "out of reach";
    case LegIkStatus::kJointLimit:
      return "outside the joint limits";
    case LegIkStatus::kNotConverged:
      return "not converged";
  }
  return "unknown";
}

LegKinematics::LegKinematics(const model::Model& model, const std::string& sole_frame)
    : sole_frame_(sole_frame) {
  const model::Frame& frame = model.frames[static_cast<std::size_t>(model.frame_index(sole_frame))];
  sole_in_ankle_ = frame.placement;
  // Walk from the foot body up to the root: six bodies, hip yaw first once reversed.
  std::array<int, kLegJoints> bodies{};
  int body = frame.body;
  for (int i = kLegJoints - 1; i >= 0; --i) {
    if (body <= 0)
      throw ModelError(model.source_path + ": frame " + sole_frame + " hangs from fewer than six joints");
    bodies[static_cast<std::size_t>(i)] = body;
    body = model.parents[static_cast<std::size_t>(body)];
  }
  if (body != 0)
    throw ModelError(model.source_path + ": frame " + sole_frame +
                     " is not six joints below the root body (leg IK needs hip yaw..ankle roll)");
  for (std::size_t i = 0; i < kLegJoints; ++i) {
    const auto b = static_cast<std::size_t>(bodies[i]);
    if (model.joint_types[b] != model::JointType::kRevolute || model.axis_kinds[b] != kLegAxes[i])
      throw ModelError(model.source_path + ": joint " + model.joint_names[b - 1] + " of the leg of " +
                       sole_frame + " must be revolute about its " + "zxyyyx"[i] +
                       " axis (hip yaw, roll, pitch, knee, ankle pitch, roll)");
    joints_[i] = model::Model::joint_of_body(bodies[i]);
    placements_[i] = model.joint_placements[b];
    lower_[i] = model.lower_limit(joints_[i]);
    upper_[i] = model.upper_limit(joints_[i]);
  }
  // The hip centre (yaw/roll intersection) seen from the hip pitch joint, along the pitch axis.
  lateral_offset_ = -placements_[2].p.y();
  thigh_ = placements_[3].p.norm();
  shank_ = placements_[4].p.norm();
  if (thigh_ <= 0.0 || shank_ <= 0.0)
    throw ModelError(model.source_path + ": leg of " + sole_frame + " has a zero-length thigh or shank");
}

SE3 LegKinematics::sole_pose(const SE3& root, const LegAngles& angles) const {
  SE3 t = root;
  for (std::size_t i = 0; i < kLegJoints; ++i) {
    t = t * placements_[i];
    t.R = t.R * axis_rotation(kLegAxes[i], angles(static_cast<Eigen::Index>(i)));
  }
  return t * sole_in_ankle_;
}

SE3 LegKinematics::sole_pose_and_jacobian(const SE3& root, const LegAngles& angles,
                                          Eigen::Matrix<double, 6, 6>& jacobian) const {
  std::array<Vec3, kLegJoints> axis_world, origin_world;
  SE3 t = root;
  for (std::size_t i = 0; i < kLegJoints; ++i) {
    t = t * placements_[i];
    t.R = t.R * axis_rotation(kLegAxes[i], angles(static_cast<Eigen::Index>(i)));
    axis_world[i] = t.R * unit_axis(kLegAxes[i]);
    origin_world[i] = t.p;
  }
  const SE3 sole = t * sole_in_ankle_;
  // Body Jacobian of the sole frame: column i is joint i's unit twist expressed at the sole, sole axes.
  for (std::size_t i = 0; i < kLegJoints; ++i) {
    const auto c = static_cast<Eigen::Index>(i);
    jacobian.block<3, 1>(0, c) = sole.R.transpose() * axis_world[i].cross(sole.p - origin_world[i]);
    jacobian.block<3, 1>(3, c) = sole.R.transpose() * axis_world[i];
  }
  return sole;
}

int LegKinematics::closed_form(const SE3& hip_to_ankle, std::array<LegAngles, 4>& branches) const {
  // hip_to_ankle: ankle-roll body in the hip-yaw joint frame (at zero yaw). r = hip centre - ankle in
  // ankle coordinates; the hip centre is the hip-roll joint origin.
  const Vec3 hip_centre = placements_[1].p;
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
      LegAngles& q = branches[static_cast<std::size_t>(count++)];
      // Ankle roll: Rx(q5) r = (x, d, z).
      q(5) = std::atan2(z, d) - std::atan2(r.z(), r.y());
      q(3) = knee_sign * std::acos(std::clamp(cos_knee, -1.0, 1.0));
      // Ankle pitch: z + i(-x) = (B + A e^{i q3}) e^{i q4}.
      q(4) = std::atan2(-r.x(), z) - std::atan2(a * std::sin(q(3)), b + a * std::cos(q(3)));
      // Hip: Rz(q0) Rx(q1) Ry(q2 + q3 + q4) = (hip -> ankle rotation) Rx(-q5).
      const Mat3 m = hip_to_ankle.R * axis_rotation(model::AxisKind::kX, -q(5));
      q(0) = std::atan2(-m(0, 1), m(1, 1));
      q(1) = std::atan2(m(2, 1), -m(0, 1) * std::sin(q(0)) + m(1, 1) * std::cos(q(0)));
      q(2) = std::atan2(-m(2, 0), m(2, 2)) - q(3) - q(4);
    }
  }
  return count;
}

int LegKinematics::wrap_and_check_limits(LegAngles& q) const {
  int outside = -1;
  for (int i = 5; i >= 0; --i) {
    const auto k = static_cast<std::size_t>(i);
    const double mid = 0.5 * (lower_[k] + upper_[k]);
    if (std::isfinite(mid)) q(i) = mid + std::remainder(q(i) - mid, 2.0 * M_PI);
    // 1e-9 rad of slack: a pose computed from an in-limit configuration comes back within rounding.
    if (q(i) < lower_[k] - 1e-9 || q(i) > upper_[k] + 1e-9) outside = i;
  }
  return outside;
}

LegIkResult LegKinematics::solve(const SE3& root, const SE3& sole, const LegAngles& seed) const {
  LegIkResult result;
  const SE3 hip = root * placements_[0];
  const SE3 ankle = sole * sole_in_ankle_.inverse();
  std::array<LegAngles, 4> branches;
  const int count = closed_form(hip.act_inv(ankle), branches);
  if (count == 0) {
    result.status = LegIkStatus::kOutOfReach;
    return result;
  }
  // The branch within the limits nearest the seed; if none is within, the nearest one (reported).
  int best = -1;
  bool best_in_limits = false;
  double best_distance = 0.0;
  for (int i = 0; i < count; ++i) {
    LegAngles& q = branches[static_cast<std::size_t>(i)];
    const bool in_limits = wrap_and_check_limits(q) < 0;
    const double distance = (q - seed).squaredNorm();
    if (best < 0 || (in_limits && !best_in_limits) ||
        (in_limits == best_in_limits && distance < best_distance)) {
      best = i;
      best_in_limits = in_limits;
      best_distance = distance;
    }
  }
  LegAngles q = branches[static_cast<std::size_t>(best)];

  // Newton polish on the exact chain (no step for HRP-2's geometry, where the closed form is exact up to
  // rounding; a few if the model's offsets leave the axes).
  Eigen::Matrix<double, 6, 6> jacobian;
  for (int step = 0; step <= kMaxNewtonSteps; ++step) {
    const SE3 current = sole_pose_and_jacobian(root, q, jacobian);
    result.position_error = (current.p - sole.p).norm();
    result.rotation_error = spatial::log3(current.R.transpose() * sole.R).norm();
    if ((result.position_error <= 1e-13 && result.rotation_error <= 1e-13) || step == kMaxNewtonSteps) break;
    const spatial::Motion error = spatial::log6(current.act_inv(sole));
    const LegAngles dq = Eigen::PartialPivLU<Eigen::Matrix<double, 6, 6>>(jacobian).solve(error.to_vector());
    if (!dq.allFinite()) break;
    q += dq;
  }
  if (result.position_error > kSolvedTolerance || result.rotation_error > kSolvedTolerance) {
    result.angles = q;
    result.status = LegIkStatus::kNotConverged;
    return result;
  }
  result.limit_joint = wrap_and_check_limits(q);
  result.angles = q;
  result.status = result.limit_joint < 0 ? LegIkStatus::kSolved : LegIkStatus::kJointLimit;
  return result;
}

LegAngles LegKinematics::solve_or_throw(const SE3& root, const SE3& sole, const LegAngles& seed) const {
  const LegIkResult result = solve(root, sole, seed);
  if (result.ok()) return result.angles;
  const Vec3 reach = (root * placements_[0]).act_inv(sole.p);
  std::string what = "leg IK for " + sole_frame_ + ": " + to_string(result.status);
  if (result.status == LegIkStatus::kJointLimit)
    what += " (joint " + std::to_string(joints_[static_cast<std::size_t>(result.limit_joint)]) + " at " +
            std::to_string(result.angles(result.limit_joint)) + " rad)";
  what += "; sole " + std::to_string(reach.norm()) + " m from the hip (straight leg " +
          std::to_string(thigh_ + shank_ + sole_in_ankle_.p.norm()) + " m)";
  throw InfeasibleError(what);
}

}  // namespace mimic::stability
