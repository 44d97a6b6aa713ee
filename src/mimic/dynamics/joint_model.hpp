// Internal to dynamics/ (and to later algorithms such as RNEA derivatives): the per-joint computations of
// seed 002's "joint calc" step for the 1-DoF joints of mimic, specialised on the joint axis so that an
// axis-aligned revolute joint costs a rotation about x, y or z and no general 3x3 product.
#pragma once

#include <cmath>

#include "mimic/model/model.hpp"
#include "mimic/spatial/force.hpp"
#include "mimic/spatial/motion.hpp"
#include "mimic/spatial/se3.hpp"

namespace mimic::dynamics::detail {

using model::AxisKind;
using model::JointType;
using spatial::Mat3;
using spatial::Vec3;

// liMi = joint_placement * exp(S q): the parent-to-child placement of body b for the joint value qj.
inline void joint_transform(const model::Model& m, int b, double qj, spatial::SE3& liMi) {
  const spatial::SE3& P = m.joint_placements[b];
  if (m.joint_types[b] == JointType::kPrismatic) {
    liMi.R = P.R;
    liMi.p = P.p + P.R * (m.axes[b] * qj);
    return;
  }
  const double s = std::sin(qj);
  const double c = std::cos(qj);
  liMi.p = P.p;
  // P.R * R_axis(q) column by column: R_x(q) = [1 0 0; 0 c -s; 0 s c] mixes columns 1 and 2, etc.
  switch (m.axis_kinds[b]) {
    case AxisKind::kX:
      liMi.R.col(0) = P.R.col(0);
      liMi.R.col(1) = c * P.R.col(1) + s * P.R.col(2);
      liMi.R.col(2) = c * P.R.col(2) - s * P.R.col(1);
      break;
    case AxisKind::kY:
      liMi.R.col(0) = c * P.R.col(0) - s * P.R.col(2);
      liMi.R.col(1) = P.R.col(1);
      liMi.R.col(2) = s * P.R.col(0) + c * P.R.col(2);
      break;
    case AxisKind::kZ:
      liMi.R.col(0) = c * P.R.col(0) + s * P.R.col(1);
      liMi.R.col(1) = c * P.R.col(1) - s * P.R.col(0);
      liMi.R.col(2) = P.R.col(2);
      break;
    case AxisKind::kGeneric: {
      const Vec3& u = m.axes[b];
      const Mat3 U = spatial::skew(u);
      liMi.R.noalias() = P.R * (Mat3::Identity() + s * U + (1.0 - c) * U * U);
      break;
    }
  }
}

// The joint twist S * x (x = velocity or acceleration of the joint), in the child body frame.
inline spatial::Motion joint_motion(const model::Model& m, int b, double x) {
  if (m.joint_types[b] == JointType::kPrismatic) return spatial::Motion(m.axes[b] * x, Vec3::Zero());
  return spatial::Motion(Vec3::Zero(), m.axes[b] * x);
}

// Adds S * x to the twist `v` of body b.
inline void add_joint_motion(const model::Model& m, int b, double x, spatial::Motion& v) {
  if (m.joint_types[b] == JointType::kPrismatic) {
    v.v += m.axes[b] * x;
    return;
  }
  switch (m.axis_kinds[b]) {
    case AxisKind::kX:
      v.w.x() += x;
      break;
    case AxisKind::kY:
      v.w.y() += x;
      break;
    case AxisKind::kZ:
      v.w.z() += x;
      break;
    case AxisKind::kGeneric:
      v.w += m.axes[b] * x;
      break;
  }
}

// S^T f: the generalised force of joint b for the body force f (body-b frame).
inline double joint_force(const model::Model& m, int b, const spatial::Force& f) {
  if (m.joint_types[b] == JointType::kPrismatic) return m.axes[b].dot(f.f);
  switch (m.axis_kinds[b]) {
    case AxisKind::kX:
      return f.tau.x();
    case AxisKind::kY:
      return f.tau.y();
    case AxisKind::kZ:
      return f.tau.z();
    case AxisKind::kGeneric:
      break;
  }
  return m.axes[b].dot(f.tau);
}

// v × (S x): the Coriolis term of the joint acceleration (seed 002 "joint acceleration"), added to `a`.
inline void add_joint_bias(const model::Model& m, int b, const spatial::Motion& v, double x,
                           spatial::Motion& a) {
  if (m.joint_types[b] == JointType::kPrismatic) {
    a.v += v.w.cross(m.axes[b] * x);  // [w × s x; 0]
    return;
  }
  // [v × (s x); w × (s x)]
  const Vec3 u = m.axes[b] * x;
  a.v += v.v.cross(u);
  a.w += v.w.cross(u);
}

// The base placement and the base quaternion layout of docs/CONTRACTS.md: q = [p; x y z w; joints].
inline void base_transform(const Eigen::Ref<const Eigen::VectorXd>& q, spatial::SE3& oM0) {
  const spatial::Quat quat(q[6], q[3], q[4], q[5]);
  oM0.R = quat.toRotationMatrix();  // q is assumed normalised (model::normalize)
  oM0.p = q.head<3>();
}

}  // namespace mimic::dynamics::detail
