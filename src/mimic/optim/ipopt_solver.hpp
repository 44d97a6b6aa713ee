// Ipopt back end (Debian's Ipopt 3.11, TNLP interface) on the same Problem, with the same analytic sparse
// Jacobians: objective f = 1/2 |r|^2 + f0 with gradient J_r^T r + grad f0, constraints [h; g] with
// bounds [0; -inf] .. [0; 0], variable bounds passed through.
//
// Hessian. kGaussNewton gives Ipopt J_r^T J_r + hess f0 as "the Hessian of the Lagrangian": exact for
// least-squares objectives under linear constraints and bounds (spline tracking with joint angle and
// velocity limits), but it leaves out the constraints' curvature sum_i lambda_i hess c_i; where that
// matters Ipopt crawls (HS71, with its curved equality |x|^2 = 40, hits any iteration limit). It needs
// the Hessian of f0 when the problem has an f0. kLimitedMemory (L-BFGS) needs no second derivatives and
// copes with any constraint curvature, but on the spline problems of bench/optim.cpp it takes ~8x the
// iterations, each dearer (5 s clip: 145 s CPU against 7.9 s). kAuto, the default, runs Gauss-Newton
// (when it applies) with at most `gauss_newton_iterations` iterations per run and, if that does not
// converge, starts again from x0 with L-BFGS: the speed of the first where it works, the reach of the
// second where it does not.
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
  enum class Hessian { kAuto, kGaussNewton, kLimitedMemory };

  double feasibility_tolerance = 1e-6;   // Ipopt's constr_viol_tol, and mimic's final check
  double stationarity_tolerance = 1e-6;  // Ipopt's tol (its scaled overall NLP error)
  int max_iterations = 3000;
  double max_seconds = 0.0;  // Ipopt's max_cpu_time; <= 0: no limit
  Hessian hessian = Hessian::kAuto;
  int gauss_newton_iterations = 300;  // kAuto: iteration limit of each Gauss-Newton run
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
