#include "mimic/dynamics/rnea_second_order.hpp"

#include <stdexcept>

#include "mimic/dynamics/rnea_vjp.hpp"

namespace mimic::dynamics {

namespace {

// Central-difference step on a joint angle (header comment: balances truncation and rounding).
constexpr double kStep = 1e-5;

}  // namespace

RneaWeightedHessian::RneaWeightedHessian(const Model& model) : model_(model), data_(model) {}

void RneaWeightedHessian::compute(const ConfigRef& q, const ConfigRef& v, const ConfigRef& a,
                                  const ConfigRef& w, std::span<const int> joints, Eigen::MatrixXd& hessian) {
  if (q.size() != model_.nq || v.size() != model_.nv || a.size() != model_.nv || w.size() != model_.nv)
    throw std::invalid_argument("RneaWeightedHessian: q, v, a or w do not match the model");
  for (const int j : joints) {
    if (j < 0 || j >= model_.nj) throw std::invalid_argument("RneaWeightedHessian: joint out of range");
  }
  const auto m = static_cast<Eigen::Index>(joints.size());
  hessian.setZero(3 * m, 3 * m);
  q_ = q;
  v_ = v;
  // Along q_j: central differences of the whole gradient.
  for (Eigen::Index c = 0; c < m; ++c) {
    const int iq = model_.idx_q(joints[static_cast<std::size_t>(c)]);
    const double q0 = q_[iq];
    q_[iq] = q0 + kStep;
    compute_rnea_vjp(model_, data_, q_, v, a, w);
    gq_plus_ = data_.vjp_dq;
    gv_plus_ = data_.vjp_dv;
    ga_plus_ = data_.vjp_da;
    q_[iq] = q0 - kStep;
    compute_rnea_vjp(model_, data_, q_, v, a, w);
    q_[iq] = q0;
    for (Eigen::Index r = 0; r < m; ++r) {
      const int k = model_.idx_v(joints[static_cast<std::size_t>(r)]);
      hessian(r, c) = (gq_plus_[k] - data_.vjp_dq[k]) / (2.0 * kStep);
      hessian(m + r, c) = (gv_plus_[k] - data_.vjp_dv[k]) / (2.0 * kStep);
      hessian(2 * m + r, c) = (ga_plus_[k] - data_.vjp_da[k]) / (2.0 * kStep);
    }
  }
  // Along v_j: g_v is linear in v, a unit difference is exact.
  compute_rnea_vjp(model_, data_, q, v, a, w);
  gv0_ = data_.vjp_dv;
  for (Eigen::Index c = 0; c < m; ++c) {
    const int k = model_.idx_v(joints[static_cast<std::size_t>(c)]);
    v_[k] = v[k] + 1.0;
    compute_rnea_vjp(model_, data_, q, v_, a, w);
    v_[k] = v[k];
    for (Eigen::Index r = 0; r < m; ++r) {
      const int i = model_.idx_v(joints[static_cast<std::size_t>(r)]);
      hessian(m + r, m + c) = data_.vjp_dv[i] - gv0_[i];
    }
  }
  // Symmetry: Hqq and Hvv symmetrised, the q-v and q-a blocks mirrored from their transposes.
  const Eigen::MatrixXd qq = hessian.topLeftCorner(m, m);
  hessian.topLeftCorner(m, m) = 0.5 * (qq + qq.transpose());
  const Eigen::MatrixXd vv = hessian.block(m, m, m, m);
  hessian.block(m, m, m, m) = 0.5 * (vv + vv.transpose());
  hessian.block(0, m, m, m) = hessian.block(m, 0, m, m).transpose();
  hessian.block(0, 2 * m, m, m) = hessian.block(2 * m, 0, m, m).transpose();
}

}  // namespace mimic::dynamics
