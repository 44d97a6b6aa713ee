// One entry point for either back end, for callers that let the user choose (--solver alm|ipopt).
#pragma once

#include <string>

#include "mimic/optim/augmented_lagrangian.hpp"
#include "mimic/optim/ipopt_solver.hpp"

namespace mimic::optim {

enum class Backend { kAugmentedLagrangian, kIpopt };

// "alm" or "ipopt"; throws std::invalid_argument on anything else.
Backend parse_backend(const std::string& name);
const char* to_string(Backend backend);

struct SolverOptions {
  Backend backend = Backend::kAugmentedLagrangian;
  AlmOptions alm;
  IpoptOptions ipopt;
};

SolveResult solve(Problem& problem, const Eigen::VectorXd& x0, const SolverOptions& options = {},
                  const ProgressCallback& progress = {});

}  // namespace mimic::optim
