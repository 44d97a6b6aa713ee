#include "mimic/optim/curvature_product.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace mimic::optim {

namespace {

// (J(x + e v) - J(x))^T w / e accumulated into out, the difference taken in place on the probe's values.
void add_difference(SparseMatrix& probe, const SparseMatrix& at, const Eigen::VectorXd& w, double e,
                    Eigen::VectorXd& out) {
  if (w.size() == 0 || probe.nonZeros() == 0) return;
  Eigen::Map<Eigen::VectorXd> values(probe.valuePtr(), probe.nonZeros());
  values -= Eigen::Map<const Eigen::VectorXd>(at.valuePtr(), at.nonZeros());
  values /= e;
  out.noalias() += probe.transpose() * w;
}

}  // namespace

CurvatureProduct::CurvatureProduct(Problem& problem)
    : problem_(problem), probe_(make_evaluation(problem)), shape_(probe_) {}

bool CurvatureProduct::apply(const Eigen::VectorXd& x, const Evaluation& at, const CurvatureWeights& weights,
                             const Eigen::VectorXd& v, Eigen::VectorXd& out) {
  if (weights.residual.size() != at.residuals.size() || weights.equality.size() != at.equalities.size() ||
      weights.inequality.size() != at.inequalities.size() || v.size() != x.size()) {
    throw std::invalid_argument("CurvatureProduct::apply: sizes of the weights or the direction");
  }
  out.setZero(x.size());
  const double v_norm = v.size() ? v.cwiseAbs().maxCoeff() : 0.0;
  if (!(v_norm > 0.0)) return v.allFinite();
  const double e = std::sqrt(std::numeric_limits<double>::epsilon()) *
                   (1.0 + (x.size() ? x.cwiseAbs().maxCoeff() : 0.0)) / v_norm;
  x_probe_ = x + e * v;
  problem_.evaluate(x_probe_, true, probe_);
  ++evaluations_;
  shape_.check(probe_);
  add_difference(probe_.residual_jacobian, at.residual_jacobian, weights.residual, e, out);
  add_difference(probe_.equality_jacobian, at.equality_jacobian, weights.equality, e, out);
  add_difference(probe_.inequality_jacobian, at.inequality_jacobian, weights.inequality, e, out);
  if (problem_.has_objective_term() && !problem_.has_objective_hessian())
    out += (probe_.objective_gradient - at.objective_gradient) / e;
  return out.allFinite();
}

}  // namespace mimic::optim
