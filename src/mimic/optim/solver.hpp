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
};

SolveResult solve(Problem& problem, const Eigen::VectorXd& x0, const SolverOptions& options = {},
                  const ProgressCallback& progress = {});

}  // namespace mimic::optim
