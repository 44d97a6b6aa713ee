// One entry point for either back end, for callers that let the user choose (--solver alm|ipopt).
#pragma once

#include "mimic/optim/augmented_lagrangian.hpp"
#include "mimic/optim/backend.hpp"
#include "mimic/optim/ipopt_solver.hpp"

namespace mimic::optim {

struct SolverOptions {
  Backend backend = Backend::kAugmentedLagrangian;
  AlmOptions alm;
  IpoptOptions ipopt;
  // Threads of the solve (0: all cores): the problem's evaluation (Problem::set_thread_pool) and the ALM's
  // normal-matrix assembly run on them. The result does not depend on it.
  int threads = 0;
};

// Runs the back end with a ThreadPool of options.threads threads lent to the problem for the solve.
SolveResult solve(Problem& problem, const Eigen::VectorXd& x0, const SolverOptions& options = {},
                  const ProgressCallback& progress = {});

}  // namespace mimic::optim
