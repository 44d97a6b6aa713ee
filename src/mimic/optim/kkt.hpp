// First-order optimality measures of a point, computed the same way for every back end so that their
// results compare (and so that no back end's own opinion decides feasibility).
#pragma once

#include <optional>

#include "mimic/optim/problem.hpp"
#include "mimic/optim/solve_result.hpp"

namespace mimic::optim {

struct KktMeasures {
  double objective = 0.0;
  double max_violation = 0.0;
  double stationarity = 0.0;
  double complementarity = 0.0;
  std::optional<ConstraintViolation> worst;
};

// `e` must hold the values and Jacobians at x; lower / upper are the variable bounds.
KktMeasures measure_kkt(const Problem& problem, const Eigen::VectorXd& x, const Evaluation& e,
                        const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                        const Multipliers& multipliers);

// The same from the gradients at x the caller already has: grad_f = J_r^T r + grad f0 and grad_l = grad_f +
// J_h^T lambda_h + J_g^T lambda_g - lambda_lower + lambda_upper with these multipliers (the ALM's merit
// gradient is grad_l once its multipliers are updated, augmented_lagrangian.cpp: no product is repeated).
KktMeasures measure_kkt(const Problem& problem, const Eigen::VectorXd& x, const Evaluation& e,
                        const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                        const Multipliers& multipliers, const Eigen::VectorXd& grad_f,
                        const Eigen::VectorXd& grad_l);

// Largest violation only (values of `e` suffice), with its description; nullopt when none is violated.
std::optional<ConstraintViolation> worst_violation(const Problem& problem, const Eigen::VectorXd& x,
                                                   const Evaluation& e, const Eigen::VectorXd& lower,
                                                   const Eigen::VectorXd& upper);

// grad f = J_r^T r + grad f0 at the point of `e`.
Eigen::VectorXd objective_gradient(const Evaluation& e);

}  // namespace mimic::optim
