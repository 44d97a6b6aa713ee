#include "mimic/motion/refine.hpp"

#include <algorithm>
#include <utility>

namespace mimic::motion {

RefineResult refine(const RefineSteps& steps, std::set<int> torque_samples, const RefineOptions& options,
                    const ProgressCallback& progress) {
  RefineResult result;
  Eigen::VectorXd x;
  optim::SolverOptions solver = options.solver;
  for (int round = 0;; ++round) {
    optim::Problem& problem = steps.build(std::vector<int>(torque_samples.begin(), torque_samples.end()));
    if (round == 0) x = steps.initial_guess();
    // The time budget is the stage's: each round gets what the earlier ones left (a spent budget still
    // evaluates the start point, so the round reports "time limit" with its violation).
    const auto remaining = [&](double total) {
      return total > 0.0 ? std::max(total - result.solver_seconds, 1e-9) : total;
    };
    solver.alm.max_seconds = remaining(options.solver.alm.max_seconds);
    solver.ipopt.max_seconds = remaining(options.solver.ipopt.max_seconds);
    result.solve = optim::solve(problem, x, solver, progress);
    x = result.solve.x;
    ++result.solves;
    result.total_iterations += result.solve.iterations;
    result.solver_seconds += result.solve.seconds;

    result.violating.clear();
    for (const int k : steps.violating(x)) {
      if (!torque_samples.contains(k)) result.violating.push_back(k);
    }
    const bool rows_added = steps.rows_added && steps.rows_added();
    if ((result.violating.empty() && !rows_added) || round >= options.max_refinements) break;
    torque_samples.insert(result.violating.begin(), result.violating.end());
    if (progress) {
      progress({options.stage, round + 1, options.max_refinements, result.solve.objective, 0.0,
                std::to_string(result.violating.size()) + " violating samples added"});
    }
  }
  result.torque_samples = std::move(torque_samples);
  return result;
}

}  // namespace mimic::motion
