// Finite-difference check of a Problem's analytic derivatives: every column of the Jacobians of r, h and
// g (and the gradient of f0) against central differences, including entries the sparsity pattern
// leaves out. For the tests of any module that writes a Problem (e.g. the motion problem).
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "mimic/optim/problem.hpp"

namespace mimic::optim {

struct DerivativeCheckOptions {
  double step = 1e-6;  // h_j = step * max(1, |x_j|)
  // An entry passes when |analytic - numeric| <= absolute_tolerance + relative_tolerance * max(|analytic|,
  // |numeric|).
  double absolute_tolerance = 1e-6;
  double relative_tolerance = 1e-5;
  std::vector<int> columns;  // variables to perturb (2 evaluations each); empty: all of them
  int max_reported = 20;     // failures kept in the report, worst first
};

struct DerivativeMismatch {
  std::string function;  // "residual", "equality", "inequality" or "objective term"
  int row = 0;
  int column = 0;
  double analytic = 0.0;  // 0 when the entry is outside the pattern
  double numeric = 0.0;
  bool outside_pattern = false;  // the derivative is non-zero where the pattern has no entry
  double scaled_error = 0.0;     // error / allowed error (> 1 fails)
};

struct DerivativeCheckReport {
  bool passed = true;
  double max_scaled_error = 0.0;  // <= 1 when passed
  long checked_entries = 0;
  std::vector<DerivativeMismatch> failures;  // worst first, at most max_reported

  // "derivatives OK (n entries, max scaled error e)" or the worst failures, one per line.
  std::string summary() const;
};

DerivativeCheckReport check_derivatives(Problem& problem, const Eigen::VectorXd& x,
                                        const DerivativeCheckOptions& options = {});

}  // namespace mimic::optim
