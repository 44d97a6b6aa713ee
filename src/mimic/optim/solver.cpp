#include "mimic/optim/solver.hpp"

#include <stdexcept>

namespace mimic::optim {

Backend parse_backend(const std::string& name) {
  if (name == "alm") return Backend::kAugmentedLagrangian;
  if (name == "ipopt") return Backend::kIpopt;
  throw std::invalid_argument("unknown solver '" + name + "' (expected alm or ipopt)");
}

const char* to_string(Backend backend) { return backend == Backend::kIpopt ? "ipopt" : "alm"; }

SolveResult solve(Problem& problem, const Eigen::VectorXd& x0, const SolverOptions& options,
                  const ProgressCallback& progress) {
  if (options.backend == Backend::kIpopt) return solve_with_ipopt(problem, x0, options.ipopt, progress);
  return solve_augmented_lagrangian(problem, x0, options.alm, progress);
}

}  // namespace mimic::optim
