// The second-order term of a weighted sum of joint torques: for a weight vector w (size nv) and a list of
// joints J (one dof each, the free-flyer excluded), the Hessian of the scalar w^T tau(q, v, a) over
// (q_J, v_J, a_J),
//
//       [ Hqq  Hqv  Hqa ]
//   H = [ Hvq  Hvv   0  ]     (3m x 3m, m = |J|, blocks in the order of J),
//       [ Haq   0    0  ]
//
// what a least-squares problem on torques (1/2 |tau|^2) needs besides J^T J for a Newton step: the sum
// r_i Hess r_i of large residuals (gravity) is of the size of J^T J (optim/alm_subproblem.hpp).
//
// Why the zero blocks: tau = M(q) a + b(q, v) with b quadratic in v, so w^T tau is linear in a and
// quadratic in v; grad_a = M(q) w depends on q only and grad_v on (q, v) only.
//
// How: directional derivatives of the analytic reverse-mode gradient g(q, v, a) = w^T dtau/d(q, v, a)
// (rnea_vjp.hpp), i.e. forward-over-reverse with the forward pass done by differences of the analytic
// gradient:
//   * along q_j (column j of Hqq, Hvq, Haq): central differences with h = 1e-5 rad, truncation
//     h^2 |g'''| / 6 ~ 1e-10 and rounding eps |g| / h ~ 1e-11 relative to the gradient's scale;
//   * along v_j (column j of Hvv): g_v is linear in v, so g_v(v + e_j) - g_v(v) is exact up to rounding;
//   * Hqv, Hqa are the transposes of Hvq, Haq (H is symmetric), and Hqq is symmetrised.
// 3m + 1 gradient passes, O(n) each: for HRP-2's 16 retargeted joints 49 passes of about 2 RNEAs. Each
// pass after the first runs its forward half over the changed joint's subtree and its backward half over
// that subtree and its ancestors only (rnea_vjp.hpp's detail passes): bitwise the same products.
#pragma once

#include <Eigen/Core>
#include <span>
#include <vector>

#include "mimic/dynamics/derivative_data.hpp"
#include "mimic/dynamics/rnea.hpp"
#include "mimic/dynamics/rnea_vjp.hpp"

namespace mimic::dynamics {

class RneaWeightedHessian {
 public:
  explicit RneaWeightedHessian(const Model& model);

  // H (resized to 3m x 3m) of w^T rnea(q, v, a) over the joints (model joint indices, ascending or not).
  // Throws std::invalid_argument on sizes that do not match the model.
  void compute(const ConfigRef& q, const ConfigRef& v, const ConfigRef& a, const ConfigRef& w,
               std::span<const int> joints, Eigen::MatrixXd& hessian);

 private:
  // What a pass that changes the q or v of the joint of a body recomputes (the constructor's lists).
  struct SubtreePass {
    std::vector<int> subtree;    // the body and its descendants, ascending: forward
    std::vector<int> ancestors;  // its parent up to the root's child
    std::vector<int> siblings;   // the ancestors' and the root's other children
    // Descending: the subtree's and the ancestors' steps with entries, the siblings' without.
    std::vector<detail::BackwardStep> backward;
  };
  // One pass at (q, v) changed in the joint of `pass` only: first puts the values the restricted backward
  // pass reads back to the pass at the unchanged (q, v) (the own terms of the ancestors and the root, the
  // subtree sums of the siblings, every vjp entry), then runs the forward pass over the subtree and the
  // backward pass over its steps.
  void perturbed_pass(const SubtreePass& pass, const ConfigRef& q, const ConfigRef& v, const ConfigRef& a,
                      const ConfigRef& w);

  const Model& model_;
  DerivativeData data_;
  std::vector<SubtreePass> passes_;  // per body (the root's empty)
  // The pass at (q, v): the forward pass's own terms, the backward pass's subtree sums and products.
  std::vector<spatial::Force> own_of_, own_Pi_, sum_of_, sum_Pi_;
  std::vector<spatial::Vec3> own_Xi_, sum_Xi_;
  Eigen::VectorXd base_dq_, base_dv_, base_da_;
  Eigen::VectorXd q_, v_;
  Eigen::VectorXd gq_plus_, gv_plus_, ga_plus_;
};

}  // namespace mimic::dynamics
