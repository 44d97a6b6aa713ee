#include "mimic/dynamics/rnea_second_order.hpp"

#include <algorithm>
#include <stdexcept>

#include "mimic/dynamics/rnea_vjp.hpp"

namespace mimic::dynamics {

namespace {

// Central-difference step on a joint angle (header comment: balances truncation and rounding).
constexpr double kStep = 1e-5;

}  // namespace

RneaWeightedHessian::RneaWeightedHessian(const Model& model) : model_(model), data_(model) {
  // Bodies are numbered parents first (model.hpp), so one ascending scan per body finds its subtree.
  const auto bodies = static_cast<std::size_t>(model.nbodies);
  passes_.resize(bodies);
  std::vector<char> changed(bodies);
  for (int b = 1; b < model.nbodies; ++b) {
    SubtreePass& pass = passes_[static_cast<std::size_t>(b)];
    std::fill(changed.begin(), changed.end(), 0);
    changed[static_cast<std::size_t>(b)] = 1;
    pass.subtree.push_back(b);
    for (int c = b + 1; c < model.nbodies; ++c) {
      if (changed[static_cast<std::size_t>(model.parents[c])] != 0) {
        changed[static_cast<std::size_t>(c)] = 1;
        pass.subtree.push_back(c);
      }
    }
    // The ancestors' sums change too; their other children (and the root's) only hand theirs on.
    for (int a = model.parents[b]; a > 0; a = model.parents[a]) {
      changed[static_cast<std::size_t>(a)] = 1;
      pass.ancestors.push_back(a);
    }
    for (const int a : pass.ancestors) {
      for (const int c : model.children[static_cast<std::size_t>(a)])
        if (changed[static_cast<std::size_t>(c)] == 0) pass.siblings.push_back(c);
    }
    for (const int c : model.children[0])
      if (changed[static_cast<std::size_t>(c)] == 0) pass.siblings.push_back(c);
    for (int c = model.nbodies - 1; c > 0; --c) {
      const bool entries = changed[static_cast<std::size_t>(c)] != 0;
      const bool sibling = std::find(pass.siblings.begin(), pass.siblings.end(), c) != pass.siblings.end();
      if (entries || sibling) pass.backward.push_back({c, entries});
    }
  }
}

void RneaWeightedHessian::perturbed_pass(const SubtreePass& pass, const ConfigRef& q, const ConfigRef& v,
                                         const ConfigRef& a, const ConfigRef& w) {
  const auto restore = [&](int b, const std::vector<spatial::Force>& of,
                           const std::vector<spatial::Force>& pi, const std::vector<spatial::Vec3>& xi) {
    const auto i = static_cast<std::size_t>(b);
    data_.of[i] = of[i];
    data_.Pi[i] = pi[i];
    data_.Xi[i] = xi[i];
  };
  restore(0, own_of_, own_Pi_, own_Xi_);
  for (const int a : pass.ancestors) restore(a, own_of_, own_Pi_, own_Xi_);
  for (const int c : pass.siblings) restore(c, sum_of_, sum_Pi_, sum_Xi_);
  data_.vjp_dq = base_dq_;
  data_.vjp_dv = base_dv_;
  data_.vjp_da = base_da_;
  detail::rnea_vjp_forward(model_, data_, q, v, a, w, pass.subtree);
  detail::rnea_vjp_backward(model_, data_, w, pass.backward);
}

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
  // Every pass below changes one joint's q or v, which changes the kinematics and own terms of that joint's
  // subtree only, and the subtree sums of it and its ancestors: the forward pass runs over the subtree and
  // the backward pass over it, its ancestors and the children those hand on (rnea_vjp.hpp's detail passes),
  // on the other bodies' values of the pass at (q, v); the forward pass runs again at (q, v) after the
  // column to put the subtree back. Each product is thus bitwise what a full pass gives, at a fraction of
  // the work (HRP-2's arm joints move 1 - 7 of its 31 bodies).
  detail::rnea_vjp_forward(model_, data_, q, v, a, w);
  own_of_ = data_.of;
  own_Pi_ = data_.Pi;
  own_Xi_ = data_.Xi;
  detail::rnea_vjp_backward(model_, data_, w);
  sum_of_ = data_.of;
  sum_Pi_ = data_.Pi;
  sum_Xi_ = data_.Xi;
  base_dq_ = data_.vjp_dq;
  base_dv_ = data_.vjp_dv;
  base_da_ = data_.vjp_da;
  const auto pass_of = [&](int joint) -> const SubtreePass& {
    return passes_[static_cast<std::size_t>(model::Model::body_of_joint(joint))];
  };
  // Along q_j: central differences of the whole gradient.
  for (Eigen::Index c = 0; c < m; ++c) {
    const int joint = joints[static_cast<std::size_t>(c)];
    const SubtreePass& pass = pass_of(joint);
    const int iq = model_.idx_q(joint);
    const double q0 = q_[iq];
    q_[iq] = q0 + kStep;
    perturbed_pass(pass, q_, v, a, w);
    gq_plus_ = data_.vjp_dq;
    gv_plus_ = data_.vjp_dv;
    ga_plus_ = data_.vjp_da;
    q_[iq] = q0 - kStep;
    perturbed_pass(pass, q_, v, a, w);
    q_[iq] = q0;
    for (Eigen::Index r = 0; r < m; ++r) {
      const int k = model_.idx_v(joints[static_cast<std::size_t>(r)]);
      hessian(r, c) = (gq_plus_[k] - data_.vjp_dq[k]) / (2.0 * kStep);
      hessian(m + r, c) = (gv_plus_[k] - data_.vjp_dv[k]) / (2.0 * kStep);
      hessian(2 * m + r, c) = (ga_plus_[k] - data_.vjp_da[k]) / (2.0 * kStep);
    }
    detail::rnea_vjp_forward(model_, data_, q_, v, a, w, pass.subtree);
  }
  // Along v_j: g_v is linear in v, a unit difference is exact.
  for (Eigen::Index c = 0; c < m; ++c) {
    const int joint = joints[static_cast<std::size_t>(c)];
    const SubtreePass& pass = pass_of(joint);
    const int k = model_.idx_v(joint);
    v_[k] = v[k] + 1.0;
    perturbed_pass(pass, q, v_, a, w);
    v_[k] = v[k];
    for (Eigen::Index r = 0; r < m; ++r) {
      const int i = model_.idx_v(joints[static_cast<std::size_t>(r)]);
      hessian(m + r, m + c) = data_.vjp_dv[i] - base_dv_[i];
    }
    detail::rnea_vjp_forward(model_, data_, q, v_, a, w, pass.subtree);
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
