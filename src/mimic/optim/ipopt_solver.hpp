// Ipopt back end (Debian's Ipopt 3.11, TNLP interface) on the same Problem, with the same analytic sparse
// Jacobians: objective f = 1/2 |r|^2 + f0 with gradient J_r^T r + grad f0, constraints [h; g] with
// bounds [0; -inf] .. [0; 0], variable bounds passed through.
//
// Hessian: limited-memory quasi-Newton (L-BFGS) by default: it needs no second derivatives of the
// dynamics and is robust with nonlinear constraints. kGaussNewton instead gives Ipopt J_r^T J_r +
// hess f0 as "the Hessian of the Lagrangian": exact for least-squares objectives under linear
// constraints and bounds (spline tracking with joint angle and velocity limits), and much faster there,
// but it leaves out the constraints' curvature sum_i lambda_i hess c_i. Where that matters Ipopt
// crawls: on HS71 (curved equality |x|^2 = 40) it hits the iteration limit. Use it knowingly. It needs
// the Hessian of f0 when the problem has an f0.
//
// The verdict is mimic's, not Ipopt's: the returned status is kConverged only if Ipopt converged AND
// the point meets `feasibility_tolerance` measured like the ALM does; the stationarity reported is the
// same measure as the ALM's, computed from Ipopt's multipliers.
#pragma once

#include <Eigen/Core>
#include <map>
#include <string>

#include "mimic/core/progress.hpp"
#include "mimic/optim/problem.hpp"
#include "mimic/optim/solve_result.hpp"

namespace mimic::optim {

struct IpoptOptions {
  enum class Hessian { kLimitedMemory, kGaussNewton };

  double feasibility_tolerance = 1e-6;   // Ipopt's constr_viol_tol, and mimic's final check
  double stationarity_tolerance = 1e-6;  // Ipopt's tol (its scaled overall NLP error)
  int max_iterations = 3000;
  double max_seconds = 0.0;  // Ipopt's max_cpu_time; <= 0: no limit
  Hessian hessian = Hessian::kLimitedMemory;
  bool verbose = false;  // Ipopt's banner, iteration log (print_level 5) and timing statistics on stdout
  // Inequality screening. Ipopt's cost per iteration grows with every inequality it carries, and a
  // motion problem has thousands of limits at 200 Hz of which few ever come near. With screening, Ipopt
  // sees only the inequalities with g > -screening_margin at its start point; after each run all of
  // them are checked, those with g > -screening_margin join, and Ipopt runs again from the last point,
  // until no inequality left out is violated. The result is measured on the full problem either way.
  bool screen_inequalities = true;
  double screening_margin = 0.1;          // in the units of g (0.1 = 10% of a limit scaled to 1)
  int screening_min_inequalities = 1000;  // with fewer, Ipopt gets them all at once
  int max_screening_rounds = 10;
  // Any other Ipopt option by name, applied last (e.g. {"mumps_pivot_order", 5}).
  std::map<std::string, std::string> string_options;
  std::map<std::string, int> integer_options;
  std::map<std::string, double> numeric_options;
};

// Exceptions thrown by the problem propagate; Ipopt's own failures become statuses.
SolveResult solve_with_ipopt(Problem& problem, const Eigen::VectorXd& x0, const IpoptOptions& options = {},
                             const ProgressCallback& progress = {});

}  // namespace mimic::optim
