#include "mimic/optim/kkt.hpp"

#include <algorithm>
#include <cmath>

namespace mimic::optim {

Eigen::VectorXd objective_gradient(const Evaluation& e) {
  Eigen::VectorXd g = e.objective_gradient;
  g.noalias() += e.residual_jacobian.transpose() * e.residuals;
  return g;
}

std::optional<ConstraintViolation> worst_violation(const Problem& problem, const Eigen::VectorXd& x,
                                                   const Evaluation& e, const Eigen::VectorXd& lower,
                                                   const Eigen::VectorXd& upper) {
  ConstraintViolation worst;
  worst.amount = 0.0;
  double worst_value = 0.0;
  auto consider = [&](ConstraintKind kind, int index, double amount, double value) {
    // NaN counts as the worst possible violation.
    if (amount > worst.amount || (std::isnan(amount) && !std::isnan(worst.amount))) {
      worst.kind = kind;
      worst.index = index;
      worst.amount = amount;
      worst_value = value;
    }
  };
  for (int i = 0; i < e.equalities.size(); ++i) {
    consider(ConstraintKind::kEquality, i, std::abs(e.equalities[i]), e.equalities[i]);
  }
  for (int i = 0; i < e.inequalities.size(); ++i) {
    consider(ConstraintKind::kInequality, i,
             std::isnan(e.inequalities[i]) ? e.inequalities[i] : std::max(0.0, e.inequalities[i]),
             e.inequalities[i]);
  }
  for (int i = 0; i < x.size(); ++i) {
    consider(ConstraintKind::kLowerBound, i, lower[i] - x[i], lower[i] - x[i]);
    consider(ConstraintKind::kUpperBound, i, x[i] - upper[i], x[i] - upper[i]);
  }
  if (!(worst.amount > 0.0) && !std::isnan(worst.amount)) return std::nullopt;
  worst.description = problem.describe_constraint(worst.kind, worst.index, worst_value);
  return worst;
}

KktMeasures measure_kkt(const Problem& problem, const Eigen::VectorXd& x, const Evaluation& e,
                        const Eigen::VectorXd& lower, const Eigen::VectorXd& upper, const Multipliers& m) {
  const Eigen::VectorXd grad_f = objective_gradient(e);
  Eigen::VectorXd grad_l = grad_f;
  if (m.equality.size() > 0) grad_l.noalias() += e.equality_jacobian.transpose() * m.equality;
  if (m.inequality.size() > 0) grad_l.noalias() += e.inequality_jacobian.transpose() * m.inequality;
  if (m.lower_bound.size() > 0) grad_l -= m.lower_bound;
  if (m.upper_bound.size() > 0) grad_l += m.upper_bound;
  return measure_kkt(problem, x, e, lower, upper, m, grad_f, grad_l);
}

KktMeasures measure_kkt(const Problem& problem, const Eigen::VectorXd& x, const Evaluation& e,
                        const Eigen::VectorXd& lower, const Eigen::VectorXd& upper, const Multipliers& m,
                        const Eigen::VectorXd& grad_f, const Eigen::VectorXd& grad_l) {
  KktMeasures k;
  k.objective = e.objective();
  k.worst = worst_violation(problem, x, e, lower, upper);
  k.max_violation = k.worst ? k.worst->amount : 0.0;

  const double scale = std::max(1.0, grad_f.size() > 0 ? grad_f.cwiseAbs().maxCoeff() : 0.0);
  k.stationarity = grad_l.size() > 0 ? grad_l.cwiseAbs().maxCoeff() / scale : 0.0;

  double c = 0.0;
  for (int i = 0; i < m.inequality.size(); ++i)
    c = std::max(c, std::abs(std::min(-e.inequalities[i], m.inequality[i])));
  for (int i = 0; i < m.lower_bound.size(); ++i) {
    if (std::isfinite(lower[i])) c = std::max(c, std::abs(std::min(x[i] - lower[i], m.lower_bound[i])));
  }
  for (int i = 0; i < m.upper_bound.size(); ++i) {
    if (std::isfinite(upper[i])) c = std::max(c, std::abs(std::min(upper[i] - x[i], m.upper_bound[i])));
  }
  k.complementarity = c;
  return k;
}

}  // namespace mimic::optim
