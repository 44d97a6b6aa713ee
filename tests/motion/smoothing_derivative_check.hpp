// The smoothing problem's derivative tests share their point and their finite differences: every test of a
// row kind (torque residuals, support rows, geometry rows, pair strides, quadrature) checks its Jacobians
// the same way.
#pragma once

#include <Eigen/Core>
#include <cmath>

#include "mimic/motion/smoothing_problem.hpp"
#include "mimic/optim/derivative_check.hpp"

namespace mimic::testing {

// A point away from the plan (legs and waist moved by up to ~0.02 rad / 2 cm), so that the feet are off their
// placements and every term is non-trivial.
inline Eigen::VectorXd away_from_plan(const motion::SmoothingProblem& problem) {
  Eigen::VectorXd x = problem.initial_guess();
  for (Eigen::Index i = 0; i < x.size(); ++i) x[i] += 0.02 * std::sin(1.7 * static_cast<double>(i) + 0.3);
  return x;
}

// The Jacobians at `x` against central differences with h = 1e-6 (relative to max(1, |x|)): truncation
// h^2 |f'''| ~ 1e-12 relative for these smooth functions, rounding eps |f| / h ~ 1e-10 for |f| <= 1e2
// (torque residuals sqrt(dt) tau ~ 10, equalities in mm ~ 10, penalty rows ~ 1e2, distances over a
// centimetre and angles over 0.035 rad ~ 1). An analytic error (a missing term, a wrong sign, a frame mix-up)
// shows as O(1) relative errors, far above the 1e-6 accepted here.
inline optim::DerivativeCheckReport check_smoothing_derivatives(motion::SmoothingProblem& problem,
                                                                const Eigen::VectorXd& x) {
  optim::DerivativeCheckOptions options;
  options.step = 1e-6;
  options.relative_tolerance = 1e-6;
  options.absolute_tolerance = 1e-6;
  return optim::check_derivatives(problem, x, options);
}

}  // namespace mimic::testing
