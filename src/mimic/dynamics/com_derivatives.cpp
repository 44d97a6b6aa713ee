// Centroidal derivatives (notation of derivative_data.hpp and rnea_derivatives.cpp).
//
// Centre of mass. m com = sum_l m_l c_l (world). A tangent step dq_k moves the subtree of k rigidly, so the
// subtree's centre of mass c_k moves with the point velocity of S_k there: d(m com)/dq_k = m_k (S_k.v +
// S_k.w × c_k) = m_k S_k.v - mc_k × S_k.w, the linear part of Ycrb_k S_k (mc_k = subtree sum of m_l c_l).
//
// Centre-of-mass velocity. m vcom = h.f, the linear momentum, with h = sum_l oY_l ov_l. Under dq_k the
// subtree's momenta are transported and their twists gain dVdq_k:
//   dh/dq_k = S_k ×* hcrb_k + Ycrb_k dVdq_k,  linear part  S_k.w × hcrb_k.f + m_k dVdq_k.v - mc_k × dVdq_k.w.
//
// Centre-of-mass acceleration and contact wrench: the RNEA force transmitted to the root, oF_root = dh - m g,
// is the contact wrench W, and d(oF_root)/dx_k = dFdq_k, dFdv_k, Ag_k (detail::centroidal_derivative_pass).
// m acom = m g + W.f.
#include "mimic/dynamics/com_derivatives.hpp"

#include <stdexcept>

#include "mimic/dynamics/derivatives_detail.hpp"

namespace mimic::dynamics {

namespace {

using detail::motion_row;
using spatial::Motion;
using spatial::Vec3;

// Forward kinematics (q, and v when given) and the subtree sums of m, m c and, with v, the linear momentum
// h.f, in data.oYcrb[b].m / .mc and data.oh[b].f (the other fields of those are not set by this pass).
void mass_pass(const Model& model, DerivativeData& d, const ConfigRef& q, const ConfigRef* v) {
  const bool ff = model.has_free_flyer();
  detail::root_forward(model, d, q, ff && v ? Motion(v->head<3>(), v->segment<3>(3)) : Motion::Zero(),
                       Motion::Zero());
  for (int b = 1; b < model.nbodies; ++b) {
    const int j = model::Model::joint_of_body(b);
    detail::joint_forward(model, d, b, q[model.idx_q(j)], v ? (*v)[model.idx_v(j)] : 0.0, 0.0);
  }
  for (int b = 0; b < model.nbodies; ++b) {
    const spatial::Inertia& Y = model.inertias[b];
    d.oYcrb[b].m = Y.mass;
    d.oYcrb[b].mc = Y.mass * d.oMi[b].act(Y.com);
    if (v) d.oh[b].f = Y.mass * d.ov[b].v - d.oYcrb[b].mc.cross(d.ov[b].w);
  }
  for (int b = model.nbodies - 1; b > 0; --b) {
    const int parent = model.parents[b];
    d.oYcrb[parent].m += d.oYcrb[b].m;
    d.oYcrb[parent].mc += d.oYcrb[b].mc;
    if (v) d.oh[parent].f += d.oh[b].f;
  }
}

void check_columns(const Model& model, const DerivativeData& d, Eigen::Index cols) {
  if (d.nv != model.nv || cols != model.nv)
    throw std::invalid_argument("com derivatives: output size or DerivativeData do not match the model");
}

void check_sizes(const Model& model, const ConfigRef& q, const ConfigRef* v, const ConfigRef* a) {
  if (q.size() != model.nq || (v && v->size() != model.nv) || (a && a->size() != model.nv))
    throw std::invalid_argument("com derivatives: q, v or a do not match the model");
}

// The Jacobian of m com: column k = m_k S_k.v - mc_k × S_k.w, body k's subtree (the whole robot for the
// free-flyer's dofs).
void mass_weighted_com_jacobian(const DerivativeData& d, Eigen::Ref<Matrix3x> J) {
  for (int k = 0; k < d.nv; ++k) {
    const WorldInertia& Y = d.oYcrb[d.body_of_dof[k]];
    const Motion S = motion_row(d.J, k);
    J.col(k) = Y.m * S.v - Y.mc.cross(S.w);
  }
}

}  // namespace

Vec3 com_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q,
                     Eigen::Ref<Matrix3x> dcom_dq) {
  check_columns(model, data, dcom_dq.cols());
  check_sizes(model, q, nullptr, nullptr);
  mass_pass(model, data, q, nullptr);
  const double m = data.oYcrb[0].m;
  mass_weighted_com_jacobian(data, dcom_dq);
  dcom_dq /= m;
  return data.oYcrb[0].mc / m;
}

Vec3 com_velocity_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q,
                              const ConfigRef& v, Eigen::Ref<Matrix3x> dvcom_dq,
                              Eigen::Ref<Matrix3x> dvcom_dv) {
  check_columns(model, data, dvcom_dq.cols());
  check_columns(model, data, dvcom_dv.cols());
  check_sizes(model, q, &v, nullptr);
  mass_pass(model, data, q, &v);
  const double m = data.oYcrb[0].m;
  mass_weighted_com_jacobian(data, dvcom_dv);
  dvcom_dv /= m;
  for (int k = 0; k < data.nv; ++k) {
    const int b = data.body_of_dof[k];
    const WorldInertia& Y = data.oYcrb[b];
    const Motion S = motion_row(data.J, k);
    const Motion dV = motion_row(data.dVdq, k);
    dvcom_dq.col(k) = (S.w.cross(data.oh[b].f) + Y.m * dV.v - Y.mc.cross(dV.w)) / m;
  }
  return data.oh[0].f / m;
}

Vec3 com_acceleration_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q,
                                  const ConfigRef& v, const ConfigRef& a, Eigen::Ref<Matrix3x> dacom_dq,
                                  Eigen::Ref<Matrix3x> dacom_dv, Eigen::Ref<Matrix3x> dacom_da) {
  check_columns(model, data, dacom_dq.cols());
  check_columns(model, data, dacom_dv.cols());
  check_columns(model, data, dacom_da.cols());
  detail::centroidal_derivative_pass(model, data, q, v, a);
  const double m = data.oYcrb[0].m;
  dacom_dq = data.dFdq.leftCols<3>().transpose() / m;
  dacom_dv = data.dFdv.leftCols<3>().transpose() / m;
  dacom_da = data.Ag.leftCols<3>().transpose() / m;
  return model.gravity + data.of[0].f / m;
}

spatial::Force contact_wrench_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q,
                                          const ConfigRef& v, const ConfigRef& a, Eigen::Ref<Matrix6x> dW_dq,
                                          Eigen::Ref<Matrix6x> dW_dv, Eigen::Ref<Matrix6x> dW_da) {
  check_columns(model, data, dW_dq.cols());
  check_columns(model, data, dW_dv.cols());
  check_columns(model, data, dW_da.cols());
  detail::centroidal_derivative_pass(model, data, q, v, a);
  dW_dq = data.dFdq.transpose();
  dW_dv = data.dFdv.transpose();
  dW_da = data.Ag.transpose();
  return data.of[0];
}

}  // namespace mimic::dynamics
