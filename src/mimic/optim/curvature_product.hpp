// The second-order term the Gauss-Newton matrix leaves out, along a direction:
//
//   S(x; w) v = sum_i w_i Hess c_i(x) v   over the rows c_i of r, h and g, with weights w,
//
// (plus Hess f0 v for a problem whose f0 has no Hessian of its own). With w = r for the residuals and the
// multiplier estimates for the constraints (the ALM's lambda_h + sigma h, max(0, lambda_g + sigma g)),
// J^T W J + S is the exact Hessian of the augmented Lagrangian on its current active set: what a
// large-residual least-squares problem (the torque objective, tau nonlinear in q through M(q) qdd +
// h(q, qd)) needs for better than linear convergence.
//
// S v is the directional derivative of the analytic J(x)^T w for fixed w, taken by a forward difference of
// the analytic Jacobians: S v = (J(x + e v) - J(x))^T w / e + O(e |v|^2), with e = sqrt(machine epsilon)
// (1 + |x|_inf) / |v|_inf, which balances the truncation against the rounding of the Jacobians' values (a
// relative error near 1e-8, far below what a truncated inner solve needs). One problem evaluation per
// product; the Jacobian patterns are shared, so the difference is taken on the value arrays.
#pragma once

#include <Eigen/Core>

#include "mimic/optim/problem.hpp"

namespace mimic::optim {

struct CurvatureWeights {
  Eigen::VectorXd residual;    // num_residuals()
  Eigen::VectorXd equality;    // num_equalities()
  Eigen::VectorXd inequality;  // num_inequalities()
};

class CurvatureProduct {
 public:
  // Allocates one evaluation of `problem` (its Jacobian patterns), which must outlive this object.
  explicit CurvatureProduct(Problem& problem);

  // out = S(x; w) v, where `at` is the evaluation of x with Jacobians. False (out undefined) when the
  // problem's values at x + e v are not finite. The problem evaluates on the threads it was lent.
  bool apply(const Eigen::VectorXd& x, const Evaluation& at, const CurvatureWeights& weights,
             const Eigen::VectorXd& v, Eigen::VectorXd& out);

  int evaluations() const { return evaluations_; }

 private:
  Problem& problem_;
  Evaluation probe_;
  EvaluationShape shape_;
  Eigen::VectorXd x_probe_;
  int evaluations_ = 0;
};

}  // namespace mimic::optim
