#include "mimic/optim/augmented_lagrangian.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "mimic/optim/alm_subproblem.hpp"
#include "mimic/optim/kkt.hpp"

namespace mimic::optim {

namespace {

// Inner tolerance of the first outer iteration (relative stationarity), tightened tenfold per iteration.
constexpr double kFirstInnerTolerance = 1e-2;
// At the penalty cap, a violation that falls by less than this factor counts as "not decreasing".
constexpr double kStagnation = 0.99;

std::string format(const char* fmt, double a, double b = 0.0, double c = 0.0, double d = 0.0) {
  char text[256];
  std::snprintf(text, sizeof text, fmt, a, b, c, d);
  return text;
}

void check(const AlmOptions& o) {
  if (!(o.penalty_growth > 1.0) || !(o.max_penalty > 0.0) || o.max_outer_iterations < 1 ||
      o.max_inner_iterations < 1 || o.newton_iterations < 0 || !(o.feasibility_tolerance > 0.0) ||
      !(o.stationarity_tolerance > 0.0) || !(o.violation_decrease > 0.0 && o.violation_decrease < 1.0) ||
      o.infeasible_patience < 1 || o.residual_curvature_refresh < 1) {
    throw std::invalid_argument(
        "AlmOptions: need penalty_growth > 1, max_penalty > 0, positive tolerances, violation_decrease in "
        "(0, 1) "
        "and limits >= 1");
  }
}

}  // namespace

SolveResult solve_augmented_lagrangian(Problem& problem, const Eigen::VectorXd& x0, const AlmOptions& options,
                                       const ProgressCallback& progress, core::ThreadPool* pool) {
  check(options);
  const auto start_time = std::chrono::steady_clock::now();
  if (x0.size() != problem.num_variables()) {
    throw std::invalid_argument("solve_augmented_lagrangian: x0 has " + std::to_string(x0.size()) +
                                " entries, the problem " + std::to_string(problem.num_variables()) +
                                " variables");
  }
  const auto deadline =
      options.max_seconds > 0.0
          ? start_time + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                             std::chrono::duration<double>(std::min(options.max_seconds, 1e9)))
          : std::chrono::steady_clock::time_point::max();
  detail::AlmSubproblem sub(problem, pool, options.residual_curvature);
  sub.set_residual_curvature_refresh(options.residual_curvature_refresh);
  // The kind of step: Newton steps with the residual curvature when the problem has it, else Gauss-Newton
  // (sized, or truncated Newton) ones.
  const bool newton = sub.residual_curvature();
  sub.set_newton_iterations(newton ? 0 : options.newton_iterations);
  sub.set_residual_sizing(!newton && options.residual_sizing && options.newton_iterations == 0);
  SolveResult result;
  auto finish = [&](SolveStatus status, std::string reason) {
    const KktMeasures k = sub.measure_kkt();
    result.status = status;
    result.reason = std::move(reason);
    result.x = sub.x();
    result.objective = k.objective;
    result.max_violation = k.max_violation;
    result.stationarity = k.stationarity;
    result.complementarity = k.complementarity;
    result.feasible = k.max_violation <= options.feasibility_tolerance;
    result.worst = k.worst;
    result.multipliers = sub.multipliers();
    result.evaluations = sub.evaluations();
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
    return result;
  };

  if (!sub.start(x0)) return finish(SolveStatus::kEvaluationError, "non-finite values at the initial point");

  if (options.warm_start) sub.set_multipliers(options.warm_start->multipliers);
  if (options.warm_start && options.warm_start->penalty > 0.0) {
    sub.set_penalty(std::min(options.warm_start->penalty, options.max_penalty));
  } else if (options.initial_penalty > 0.0) {
    sub.set_penalty(std::min(options.initial_penalty, options.max_penalty));
  } else {
    const double f = std::abs(sub.evaluation().objective());
    sub.set_penalty(std::clamp(10.0 * std::max(1.0, f) / std::max(1.0, 0.5 * sub.squared_violation()), 1e-8,
                               options.max_penalty));
  }

  double violation = sub.max_violation();
  double inner_tolerance = std::max(kFirstInnerTolerance, options.stationarity_tolerance);
  double best_violation_at_cap = std::numeric_limits<double>::infinity();
  int stagnant_at_cap = 0;
  int stagnant_growing = 0;  // consecutive outer iterations of a larger penalty and no lower violation
  double previous_sigma = 0.0;
  int outer_without_steps = 0;
  double stationarity = std::numeric_limits<double>::infinity();
  for (int outer = 1; outer <= options.max_outer_iterations; ++outer) {
    result.iterations = outer;
    int steps = 0;
    const detail::InnerOutcome inner =
        sub.minimize(inner_tolerance, options.max_inner_iterations, steps, deadline);
    result.inner_iterations += steps;
    outer_without_steps = steps == 0 ? outer_without_steps + 1 : 0;

    const double previous_violation = violation;
    violation = sub.max_violation();
    const double sigma = sub.penalty();
    sub.update_multipliers();
    const KktMeasures k = sub.measure_kkt();
    stationarity = k.stationarity;
    const bool feasible = violation <= options.feasibility_tolerance;

    if (progress) {
      ProgressEvent event;
      event.stage = "alm";
      event.iteration = outer;
      event.total = options.max_outer_iterations;
      event.objective = k.objective;
      event.violation = violation;
      event.message = format("sigma %.3g, stationarity %.3g, complementarity %.3g, ", sigma, k.stationarity,
                             k.complementarity) +
                      std::to_string(steps) + " Gauss-Newton steps, " + std::to_string(sub.factorizations()) +
                      " factorizations and " + std::to_string(sub.evaluations()) + " evaluations so far";
      if (sub.residual_sizing()) event.message += format(", residual scale %.3g", sub.residual_scale());
      if (sub.residual_curvature())
        event.message +=
            ", " + std::to_string(sub.residual_curvature_evaluations()) + " curvature evaluations";
      progress(event);
    }

    if (feasible && k.stationarity <= options.stationarity_tolerance &&
        k.complementarity <= options.feasibility_tolerance) {
      return finish(SolveStatus::kConverged,
                    format("feasibility %.3g <= %.3g, stationarity %.3g <= %.3g", violation,
                           options.feasibility_tolerance, k.stationarity, options.stationarity_tolerance));
    }
    // A feasible point that no step improves cannot get more stationary. (An infeasible one may, once the
    // penalty grows; at the cap the stagnation test below decides.)
    if (feasible && inner == detail::InnerOutcome::kNoProgress &&
        outer_without_steps >= options.infeasible_patience) {
      return finish(SolveStatus::kStalled,
                    format("no Gauss-Newton step makes progress: feasible, but stationarity %.3g > %.3g",
                           k.stationarity, options.stationarity_tolerance));
    }

    // Eq. (16): after every outer iteration (kSeed), or only when the violation did not decrease enough
    // (kAdaptive).
    const bool grow = options.schedule == PenaltySchedule::kSeed
                          ? sigma < options.max_penalty
                          : !feasible && violation > options.violation_decrease * previous_violation;
    if (grow && sigma < options.max_penalty) {
      sub.set_penalty(std::min(sigma * options.penalty_growth, options.max_penalty));
    } else if (!feasible && sigma >= options.max_penalty) {
      if (violation > kStagnation * best_violation_at_cap &&
          ++stagnant_at_cap >= options.infeasible_patience) {
        return finish(
            SolveStatus::kInfeasible,
            format("penalty at its cap %.3g and the violation %.3g stopped decreasing", sigma, violation));
      }
    }
    if (sigma >= options.max_penalty && violation <= kStagnation * best_violation_at_cap) {
      best_violation_at_cap = violation;
      stagnant_at_cap = 0;
    }
    // Below the cap: the penalty grew before each of `infeasible_patience` outer iterations in a row, each
    // inner solve ended stationary (or could not move), and the violation fell by less than 1 % every time.
    // Minimising the augmented Lagrangian with a larger penalty lowers the violation unless no nearby point
    // violates less: the iterate sits at a local minimum of the violation (with the default tenfold growth,
    // three such iterations weigh the objective a thousand times less against the violation).
    const bool inner_done =
        inner == detail::InnerOutcome::kStationary || inner == detail::InnerOutcome::kNoProgress;
    if (!feasible && outer > 1 && sigma > previous_sigma && inner_done &&
        violation > kStagnation * previous_violation) {
      ++stagnant_growing;
    } else {
      stagnant_growing = 0;
    }
    previous_sigma = sigma;
    if (options.detect_stagnation && stagnant_growing >= options.infeasible_patience) {
      return finish(SolveStatus::kInfeasible,
                    format("the violation %.3g did not decrease over %.0f outer iterations while the penalty "
                           "grew to %.3g",
                           violation, options.infeasible_patience, sigma));
    }
    if (inner == detail::InnerOutcome::kTimeLimit || std::chrono::steady_clock::now() > deadline) {
      return finish(SolveStatus::kTimeLimit,
                    format("time budget of %.3g s used up after %.0f outer iterations: violation %.3g "
                           "(tolerance %.3g)",
                           options.max_seconds, outer, violation, options.feasibility_tolerance));
    }
    inner_tolerance = std::max(inner_tolerance * 0.1, options.stationarity_tolerance);
  }
  return finish(SolveStatus::kMaxIterations,
                std::to_string(options.max_outer_iterations) + " outer iterations" +
                    format(": violation %.3g (tolerance %.3g), stationarity %.3g (tolerance %.3g)", violation,
                           options.feasibility_tolerance, stationarity, options.stationarity_tolerance));
}

}  // namespace mimic::optim
