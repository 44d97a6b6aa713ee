// Internal to dynamics/: the world-frame forward step shared by the derivative algorithms (notation of
// derivative_data.hpp), and the spatial-inertia kernels of the backward step.
#pragma once

#include "mimic/dynamics/derivative_data.hpp"
#include "mimic/dynamics/joint_model.hpp"
#include "mimic/spatial/inertia.hpp"

namespace mimic::dynamics::detail {

using spatial::Force;
using spatial::Motion;
using spatial::Vec3;
using spatial::Vec6;

// Row k of a dof-major nv x 6 matrix as a Motion / Force, and back.
inline Motion motion_row(const MatrixX6& M, int k) {
  return Motion(Vec3(M(k, 0), M(k, 1), M(k, 2)), Vec3(M(k, 3), M(k, 4), M(k, 5)));
}
inline Force force_row(const MatrixX6& M, int k) {
  return Force(Vec3(M(k, 0), M(k, 1), M(k, 2)), Vec3(M(k, 3), M(k, 4), M(k, 5)));
}
inline void set_row(MatrixX6& M, int k, const Vec3& linear, const Vec3& angular) {
  M(k, 0) = linear.x();
  M(k, 1) = linear.y();
  M(k, 2) = linear.z();
  M(k, 3) = angular.x();
  M(k, 4) = angular.y();
  M(k, 5) = angular.z();
}
inline void set_row(MatrixX6& M, int k, const Motion& m) { set_row(M, k, m.v, m.w); }
inline void set_row(MatrixX6& M, int k, const Force& f) { set_row(M, k, f.f, f.tau); }

// Body inertia (body frame) -> world inertia about the world origin: c = R c_b + p, I_c = R I_cb R^T and,
// by the parallel-axis theorem, I_o = I_c - m [c]^2 = I_c + m (|c|^2 1 - c c^T). R I_cb R^T comes from the
// spectral form of I_cb (DerivativeData::InertiaSpectrum): lambda0 1 + sum mu_t (R u_t)(R u_t)^T.
inline WorldInertia world_inertia(const spatial::Inertia& Y, const DerivativeData::InertiaSpectrum& sp,
                                  const spatial::SE3& oMi) {
  WorldInertia o;
  const Vec3 c = oMi.act(Y.com);
  o.m = Y.mass;
  o.mc = Y.mass * c;
  o.Io.noalias() = -o.mc * c.transpose();
  o.Io.diagonal().array() += sp.lambda0 + o.mc.dot(c);
  for (int t = 0; t < sp.n; ++t) {
    const Vec3 a = sp.axis[t] >= 0 ? Vec3(oMi.R.col(sp.axis[t])) : Vec3(oMi.R * sp.u[t]);
    o.Io.noalias() += (sp.mu[t] * a) * a.transpose();
  }
  return o;
}

// (d/dt I_o) u for a rigid body moving with twist ov = [v; w] (world), without forming the matrix. d/dt I_o
// is the angular block of dY/dt = ov ×* Y - Y ov×, i.e. [w] I_o - I_o [w] - [v][mc] - [mc][v], so
// (d/dt I_o) u = w × (I_o u) - I_o (w × u) - v × (mc × u) - mc × (v × u). (The other blocks of dY/dt are 0
// and -/+[d(m c)/dt] = -/+[h_f]: see rnea_derivatives.cpp; body_forward forms the matrix another way.)
inline Vec3 inertia_rate_times(const WorldInertia& Y, const Motion& ov, const Vec3& u) {
  return ov.w.cross(Y.Io * u) - Y.Io * ov.w.cross(u) - ov.v.cross(Y.mc.cross(u)) - Y.mc.cross(ov.v.cross(u));
}

// The angular block C = dI_o - [h_tau] of the matrix B = [0, -2[h_f]; 0, C] of rnea_derivatives.cpp,
// formed once per dof.
inline spatial::Mat3 B_angular_block(const Force& h, const spatial::Mat3& dIo) {
  spatial::Mat3 C = dIo;
  C(0, 1) += h.tau.z();
  C(0, 2) -= h.tau.y();
  C(1, 0) -= h.tau.z();
  C(1, 2) += h.tau.x();
  C(2, 0) += h.tau.y();
  C(2, 1) -= h.tau.x();
  return C;
}

// B x (B only reads x.w): [-2 h_f × x.w; C x.w].
inline Force apply_B(const Vec3& hf, const spatial::Mat3& C, const Vec3& xw) {
  return Force(-2.0 * hf.cross(xw), C * xw);
}

// The angular part of B^T x (the linear part is 0): 2 h_f × x.v + C^T x.w.
inline Vec3 apply_Bt(const Vec3& hf, const spatial::Mat3& C, const Motion& x) {
  return 2.0 * hf.cross(x.v) + C.transpose() * x.w;
}

// Root body: placement, twist and acceleration (minus gravity) in world coordinates, and the 6 base
// columns (free-flyer): S = Ad(oM0) e_m, dVdq = 0 (the world does not move), dAdq = (-g) × S,
// dAdv = ov_0 × S. vb, ab: base twist / acceleration in the base frame (ignored for a fixed base).
inline void root_forward(const model::Model& model, DerivativeData& d,
                         const Eigen::Ref<const Eigen::VectorXd>& q, const Motion& vb, const Motion& ab) {
  // This pass overwrites the forward quantities (DerivativeData::forward_valid, backward_valid).
  d.forward_valid = false;
  d.backward_valid = false;
  const Motion minus_g(-model.gravity, Vec3::Zero());
  if (!model.has_free_flyer()) {
    d.oMi[0] = spatial::SE3::Identity();
    d.ov[0].setZero();
    d.oa_gf[0] = minus_g;
    return;
  }
  base_transform(q, d.oMi[0]);
  const spatial::SE3& M = d.oMi[0];
  d.ov[0] = M.act(vb);
  d.oa_gf[0] = M.act(ab) + minus_g;
  for (int c = 0; c < 3; ++c) {
    const Motion lin(M.R.col(c), Vec3::Zero());
    const Motion ang(M.p.cross(M.R.col(c)), M.R.col(c));
    set_row(d.J, c, lin);
    set_row(d.J, 3 + c, ang);
    set_row(d.dAdq, c, Motion::Zero());  // (-g) × [r; 0] = 0
    set_row(d.dAdq, 3 + c, Motion(-model.gravity.cross(ang.w), Vec3::Zero()));
    set_row(d.dAdv, c, d.ov[0].cross(lin));
    set_row(d.dAdv, 3 + c, d.ov[0].cross(ang));
  }
  d.dVdq.topRows<6>().setZero();
}

// The joint axis of body b in world coordinates, oR_b s: a column of oR_b for an axis-aligned joint.
inline Vec3 world_axis(const model::Model& model, int b, const spatial::SE3& oMi) {
  switch (model.axis_kinds[b]) {
    case model::AxisKind::kX:
      return oMi.R.col(0);
    case model::AxisKind::kY:
      return oMi.R.col(1);
    case model::AxisKind::kZ:
      return oMi.R.col(2);
    case model::AxisKind::kGeneric:
      break;
  }
  return oMi.R * model.axes[b];
}

// oMi = oM_parent * jointPlacement * exp(s qj). When the placement's rotation is the identity and the
// joint an axis-aligned revolute one, oR_i is oR_parent with two columns rotated by qj (as joint_transform
// does with the placement's columns), and op_i = op_parent + oR_parent p_placement.
inline void world_placement(const model::Model& model, DerivativeData& d, int b, double qj) {
  const spatial::SE3& Mp = d.oMi[model.parents[b]];
  spatial::SE3& M = d.oMi[b];
  const model::AxisKind axis = model.axis_kinds[b];
  if (!d.placement_rotation_is_identity[b] || model.joint_types[b] != model::JointType::kRevolute ||
      axis == model::AxisKind::kGeneric) {
    spatial::SE3 liMi;
    joint_transform(model, b, qj, liMi);
    M = Mp * liMi;
    return;
  }
  M.p.noalias() = Mp.R * model.joint_placements[b].p;
  M.p += Mp.p;
  const double s = std::sin(qj);
  const double c = std::cos(qj);
  // Columns (i, j) of oR_parent rotated about the remaining one: R_x mixes (1, 2), R_y (2, 0), R_z (0, 1).
  const int i = axis == model::AxisKind::kX ? 1 : axis == model::AxisKind::kY ? 2 : 0;
  const int j = axis == model::AxisKind::kX ? 2 : axis == model::AxisKind::kY ? 0 : 1;
  const int l = 3 - i - j;
  M.R.col(i) = c * Mp.R.col(i) + s * Mp.R.col(j);
  M.R.col(j) = c * Mp.R.col(j) - s * Mp.R.col(i);
  M.R.col(l) = Mp.R.col(l);
}

// Body b > 0 moved by the 1-DoF joint of dof k = idx_v(b - 1), with joint position, velocity and
// acceleration qj, vj, aj:
//   oMi = oM_parent liMi;   S = oMi.act(s) = [p × r; r] (revolute, r = world axis) or [r; 0] (prismatic)
//   ov  = ov_parent + S vj
//   oa_gf = oa_gf_parent + S aj + ov × S vj, and ov × S = ov_parent × S = dVdq (S × S = 0)
//   dAdv = ov × S + ov_parent × S = 2 dVdq.
inline void joint_forward(const model::Model& model, DerivativeData& d, int b, double qj, double vj,
                          double aj) {
  const int parent = model.parents[b];
  const int k = model.idx_v(b - 1);
  world_placement(model, d, b, qj);
  const spatial::SE3& oMi = d.oMi[b];

  const Vec3 r = world_axis(model, b, oMi);
  const Motion S = model.joint_types[b] == model::JointType::kPrismatic ? Motion(r, Vec3::Zero())
                                                                        : Motion(oMi.p.cross(r), r);
  const Motion& ov_parent = d.ov[parent];
  const Motion& oa_parent = d.oa_gf[parent];
  const Motion dVdq = ov_parent.cross(S);
  d.ov[b] = ov_parent + vj * S;
  d.oa_gf[b] = oa_parent + aj * S + vj * dVdq;
  set_row(d.J, k, S);
  set_row(d.dVdq, k, dVdq);
  set_row(d.dAdq, k, oa_parent.cross(S) + ov_parent.cross(dVdq));
  set_row(d.dAdv, k, 2.0 * dVdq);
}

// Own (single-body) quantities of body b, world frame: oYcrb = oY, oh = oY ov, of = oY oa_gf + ov ×* oh,
// doIo = d/dt I_o; the backward pass then sums them over the subtree. With c the world centre of mass,
// u = v + w × c its velocity and the spectral form I_o = (lambda0 + m |c|^2) 1 - m c c^T + sum_t mu_t a_t
// a_t^T (a_t = R u_t, world_inertia), the momentum is oh = [m u; mc × v + I_o w] and, as da_t/dt = w × a_t
// and dc/dt = u,
//   d/dt I_o = sum_t mu_t (b_t a_t^T + a_t b_t^T) - (mc u^T + u mc^T) + 2 (u.mc) 1,   b_t = w × a_t
// — the angular block of dY/dt = ov ×* Y - Y ov× (see inertia_rate_times), with no 3x3 product.
inline void body_forward(const model::Model& model, DerivativeData& d, int b) {
  const spatial::Inertia& body = model.inertias[b];
  const DerivativeData::InertiaSpectrum& sp = d.inertia_spectrum[b];
  const spatial::SE3& M = d.oMi[b];
  const Motion& ov = d.ov[b];
  WorldInertia& Y = d.oYcrb[b];
  spatial::Mat3& dIo = d.doIo[b];

  const Vec3 c = M.act(body.com);
  const Vec3 u = ov.v + ov.w.cross(c);
  Y.m = body.mass;
  Y.mc = body.mass * c;
  Y.Io.noalias() = -Y.mc * c.transpose();
  Y.Io.diagonal().array() += sp.lambda0 + Y.mc.dot(c);
  const spatial::Mat3 X = Y.mc * u.transpose();
  dIo = -(X + X.transpose());
  dIo.diagonal().array() += 2.0 * u.dot(Y.mc);
  for (int t = 0; t < sp.n; ++t) {
    const Vec3 a = sp.axis[t] >= 0 ? Vec3(M.R.col(sp.axis[t])) : Vec3(M.R * sp.u[t]);
    const Vec3 mu_a = sp.mu[t] * a;
    Y.Io.noalias() += mu_a * a.transpose();
    const spatial::Mat3 Z = ov.w.cross(mu_a) * a.transpose();
    dIo += Z + Z.transpose();
  }
  d.oh[b] = Force(Y.m * u, Y.mc.cross(ov.v) + Y.Io * ov.w);
  d.of[b] = Y * d.oa_gf[b] + ov.cross(d.oh[b]);
}

// The same without doIo (what rnea_vjp and the q-only passes need).
inline void body_forward_no_rate(const model::Model& model, DerivativeData& d, int b) {
  WorldInertia& Y = d.oYcrb[b];
  Y = world_inertia(model.inertias[b], d.inertia_spectrum[b], d.oMi[b]);
  d.oh[b] = Y * d.ov[b];
  d.of[b] = Y * d.oa_gf[b] + d.ov[b].cross(d.oh[b]);
}

// rnea_derivatives.cpp: the RNEA-derivative passes without the O(n d) rows — tau, Ag, dFdq, dFdv for every
// dof (free-flyer included) and the subtree sums, no external wrench. The root's subtree sums are the whole
// robot's: data.of[0] is the contact wrench dh - m g, and d(data.of[0])/dx_k is row k of dFdq, dFdv, Ag.
void centroidal_derivative_pass(const model::Model& model, DerivativeData& data,
                                const Eigen::Ref<const Eigen::VectorXd>& q,
                                const Eigen::Ref<const Eigen::VectorXd>& v,
                                const Eigen::Ref<const Eigen::VectorXd>& a);

}  // namespace mimic::dynamics::detail
