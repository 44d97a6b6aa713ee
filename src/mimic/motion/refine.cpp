#include "mimic/motion/refine.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace mimic::motion {

namespace {

// The rows' multipliers by key, of one kind.
using KeyedMultipliers = std::unordered_map<std::string, double>;

KeyedMultipliers keyed(const std::vector<std::string>& keys, const Eigen::VectorXd& multipliers) {
  KeyedMultipliers map;
  map.reserve(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (multipliers[static_cast<Eigen::Index>(i)] != 0.0)
      map.emplace(keys[i], multipliers[static_cast<Eigen::Index>(i)]);
  return map;
}

Eigen::VectorXd matched(const std::vector<std::string>& keys, const KeyedMultipliers& map) {
  Eigen::VectorXd multipliers = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(keys.size()));
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto found = map.find(keys[i]);
    if (found != map.end()) multipliers[static_cast<Eigen::Index>(i)] = found->second;
  }
  return multipliers;
}

}  // namespace

bool ended_infeasible(const optim::SolveResult& solve) {
  return !solve.feasible && solve.status != optim::SolveStatus::kMaxIterations;
}

RefineResult refine(const RefineSteps& steps, std::set<int> torque_samples, const RefineOptions& options,
                    const ProgressCallback& progress) {
  RefineResult result;
  Eigen::VectorXd x;
  optim::SolverOptions solver = options.solver;
  const bool warm = steps.row_keys && solver.backend == optim::Backend::kAugmentedLagrangian;
  KeyedMultipliers equality, inequality;  // the last solve's, when warm
  for (int round = 0;; ++round) {
    optim::Problem& problem = steps.build(std::vector<int>(torque_samples.begin(), torque_samples.end()));
    if (round == 0) x = steps.initial_guess();
    if (warm && round > 0) {
      optim::AlmWarmStart start;
      start.multipliers.equality = matched(steps.row_keys(terms::RowKind::kEquality), equality);
      start.multipliers.inequality = matched(steps.row_keys(terms::RowKind::kInequality), inequality);
      start.multipliers.lower_bound = result.solve.multipliers.lower_bound;
      start.multipliers.upper_bound = result.solve.multipliers.upper_bound;
      // The penalty restarts by the solver's initial rule (AlmWarmStart): the final one is near the cap
      // under the seed schedule, and on the bar walk starting there took 32 outer iterations instead of 14.
      start.penalty = 0.0;
      solver.alm.warm_start = std::move(start);
    }
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
    if (warm) {
      equality = keyed(steps.row_keys(terms::RowKind::kEquality), result.solve.multipliers.equality);
      inequality = keyed(steps.row_keys(terms::RowKind::kInequality), result.solve.multipliers.inequality);
    }

    result.violating.clear();
    for (const int k : steps.violating(x)) {
      if (!torque_samples.contains(k)) result.violating.push_back(k);
    }
    if (options.stop_when_infeasible && ended_infeasible(result.solve)) break;
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
