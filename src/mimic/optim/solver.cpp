#include "mimic/optim/solver.hpp"

namespace mimic::optim {

SolveResult solve(Problem& problem, const Eigen::VectorXd& x0, const SolverOptions& options,
                  const ProgressCallback& progress) {
  if (options.backend == Backend::kIpopt) return solve_with_ipopt(problem, x0, options.ipopt, progress);
  return solve_augmented_lagrangian(problem, x0, options.alm, progress);
}

}  // namespace mimic::optim
