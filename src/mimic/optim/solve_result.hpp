// What a solver hands back: the point, why it stopped, and, whatever the outcome, how feasible the point
// is and which constraint is the worst. A result is a success only when the point meets the feasibility
// tolerance (and the stationarity one); nothing infeasible is ever reported as converged.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>

#include "mimic/optim/problem.hpp"

namespace mimic::optim {

enum class SolveStatus {
  kConverged,        // feasibility and stationarity (and complementarity) within tolerance
  kMaxIterations,    // iteration limit reached first
  kTimeLimit,        // the wall-time budget (AlmOptions / IpoptOptions::max_seconds) ran out first
  kInfeasible,       // the violation stopped decreasing while the ALM's penalty grew or stayed at its
                     // cap, or Ipopt converged to a point of local infeasibility
  kStalled,          // no further progress possible before the tolerances were met (the point may
                     // still be feasible: see SolveResult::feasible)
  kEvaluationError,  // the problem returned non-finite values where the solver could not step back
  kSolverError,      // the back end failed (Ipopt: error in step computation, invalid option, ...)
};

const char* to_string(SolveStatus status);

struct ConstraintViolation {
  ConstraintKind kind = ConstraintKind::kInequality;
  int index = 0;            // row of h or g, or the variable for bounds
  double amount = 0.0;      // |h_i|, g_i, or distance outside the bound (> 0)
  std::string description;  // Problem::describe_constraint()
};

// Lagrange multipliers with the sign convention
//   grad f + J_h^T equality + J_g^T inequality - lower_bound + upper_bound = 0,
// inequality, lower_bound, upper_bound >= 0 (bound vectors are of size n, zero where unbounded).
struct Multipliers {
  Eigen::VectorXd equality;
  Eigen::VectorXd inequality;
  Eigen::VectorXd lower_bound;
  Eigen::VectorXd upper_bound;
};

struct SolveResult {
  SolveStatus status = SolveStatus::kStalled;
  std::string reason;  // which test stopped the solver, with the numbers, e.g.
                       // "feasibility 3.1e-07 <= 1e-06 and stationarity 8.2e-07 <= 1e-06"
  Eigen::VectorXd x;
  double objective = 0.0;                    // f(x) = 1/2 |r|^2 + f0
  double max_violation = 0.0;                // max(|h|_inf, max(0, g)_inf, distance outside the bounds)
  double stationarity = 0.0;                 // |grad_x Lagrangian|_inf / max(1, |grad f|_inf)
  double complementarity = 0.0;              // max_i |min(-g_i, multiplier_i)| (and likewise for bounds)
  bool feasible = false;                     // max_violation <= the feasibility tolerance
  std::optional<ConstraintViolation> worst;  // the largest violation, if any constraint is violated
  Multipliers multipliers;
  int iterations = 0;        // outer ALM iterations / Ipopt iterations
  int inner_iterations = 0;  // ALM: accepted Gauss-Newton steps in total
  int evaluations = 0;       // calls of Problem::evaluate
  double seconds = 0.0;

  bool success() const { return status == SolveStatus::kConverged; }
  // One line: status, objective, violation, worst constraint, iterations, time.
  std::string summary() const;
};

// Throws InfeasibleError (mimic/core/error.hpp) with `what` and the summary unless result.success().
void require_success(const SolveResult& result, const std::string& what);

}  // namespace mimic::optim
