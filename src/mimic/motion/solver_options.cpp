#include "mimic/motion/solver_options.hpp"

namespace mimic::motion {

optim::SolverOptions solver_options(const io::SolverSettings& s) {
  optim::SolverOptions o;
  o.backend =
      s.name == io::SolverKind::kIpopt ? optim::Backend::kIpopt : optim::Backend::kAugmentedLagrangian;
  o.alm.feasibility_tolerance = s.constraint_tolerance;
  o.alm.stationarity_tolerance = s.tolerance;
  o.alm.max_outer_iterations = s.max_iterations;
  o.alm.initial_penalty = s.alm.penalty_initial;
  o.alm.penalty_growth = s.alm.penalty_growth;
  o.alm.max_penalty = s.alm.penalty_max;
  o.alm.schedule = s.alm.penalty_schedule == "adaptive" ? optim::PenaltySchedule::kAdaptive
                                                        : optim::PenaltySchedule::kSeed;
  o.ipopt.feasibility_tolerance = s.constraint_tolerance;
  o.ipopt.stationarity_tolerance = s.tolerance;
  // solver.max_iterations counts outer iterations of the ALM, each a full inner Gauss-Newton solve;
  // Ipopt's iterations are single Newton steps.
  o.ipopt.max_iterations = 20 * s.max_iterations;
  // Exact for the least-squares objectives under the linear angle / velocity constraints; it leaves out
  // only the curvature of the torque and support constraints, small at the few active rows.
  o.ipopt.hessian = optim::IpoptOptions::Hessian::kGaussNewton;
  o.ipopt.verbose = s.ipopt.print_level > 0;
  if (s.ipopt.print_level > 0) o.ipopt.integer_options["print_level"] = s.ipopt.print_level;
  o.ipopt.string_options["linear_solver"] = s.ipopt.linear_solver;
  return o;
}

}  // namespace mimic::motion
