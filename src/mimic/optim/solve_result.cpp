#include "mimic/optim/solve_result.hpp"

#include <cstdio>

#include "mimic/core/error.hpp"

namespace mimic::optim {

const char* to_string(SolveStatus status) {
  switch (status) {
    case SolveStatus::kConverged:
      return "converged";
    case SolveStatus::kMaxIterations:
      return "iteration limit";
    case SolveStatus::kTimeLimit:
      return "time limit";
    case SolveStatus::kInfeasible:
      return "infeasible";
    case SolveStatus::kStalled:
      return "stalled";
    case SolveStatus::kEvaluationError:
      return "evaluation error";
    case SolveStatus::kSolverError:
      return "solver error";
  }
  return "unknown";
}

std::string SolveResult::summary() const {
  char numbers[256];
  std::snprintf(
      numbers, sizeof numbers,
      ": objective %.9g, max violation %.3g, stationarity %.3g, %d iterations, %d evaluations, %.3f s",
      objective, max_violation, stationarity, iterations, evaluations, seconds);
  std::string s = std::string(to_string(status)) + " (" + reason + ")" + numbers;
  if (worst) s += "; worst constraint: " + worst->description;
  return s;
}

void require_success(const SolveResult& result, const std::string& what) {
  if (!result.success()) throw InfeasibleError(what + ": " + result.summary());
}

}  // namespace mimic::optim
