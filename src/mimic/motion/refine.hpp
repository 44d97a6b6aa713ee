// The refinement driver shared by the retarget and smoothing problems: torque limits are constrained only
// at some samples (a row per joint and sample is the bulk of the problem), so after each solve the caller
// checks every sample, the driver adds those that violate a limit to the constrained ones and solves again
// from the last solution, until no sample violates (and the caller added no rows of its own) or
// max_refinements rounds were added. The solver's time budget (max_seconds) is for all the rounds
// together: each round gets what the earlier ones left.
// Warm start (augmented Lagrangian back end, when the caller gives row_keys): each round after the first
// starts from the previous round's multipliers, matched row by row through the keys (a new row starts at
// 0; the variables, hence the bound multipliers, are the same in every round); the penalty restarts by the
// solver's initial rule (refine.cpp says why).
// From zero multipliers and the initial penalty, the re-solve would first move back to an infeasible
// point (the constraints that held only through their multipliers) and rebuild them over many steps.
#pragma once

#include <Eigen/Core>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "mimic/core/progress.hpp"
#include "mimic/optim/problem.hpp"
#include "mimic/optim/solver.hpp"
#include "mimic/terms/term.hpp"

namespace mimic::motion {

// What the driver asks of the caller in each round.
struct RefineSteps {
  // The problem with torque-limit rows at `torque_samples` (ascending); the caller keeps it alive until
  // the next call.
  std::function<optim::Problem&(const std::vector<int>& torque_samples)> build;
  // The starting point of the first solve, from the first problem built.
  std::function<Eigen::VectorXd()> initial_guess;
  // After each solve: the samples whose torques exceed their limits at x (those that already have rows are
  // dropped by the driver). The caller may record the round's metrics here.
  std::function<std::vector<int>(const Eigen::VectorXd& x)> violating;
  // Optional, asked after violating(): true when the caller added rows of its own for the next build
  // (e.g. a collision pair it had screened out), so that another round is solved even when no new sample
  // violates.
  std::function<bool()> rows_added;
  // Optional: a key per equality or inequality row of the problem last built that stays the same when it is
  // rebuilt with more rows (SplineProblem::row_keys); enables the warm start (file comment).
  std::function<std::vector<std::string>(terms::RowKind kind)> row_keys;
};

struct RefineOptions {
  optim::SolverOptions solver;
  int max_refinements = 0;
  std::string stage;  // the progress events' stage ("motion", "smooth")
  // Stop after a solve that ended infeasible (SolveResult::feasible false) for any reason but the iteration
  // cap, without adding its violating samples: the solver found it could not lower the violation (or ran
  // out of time, or failed), and the next round would only add rows to a problem whose fewer rows could not
  // be met, starting from that infeasible point (the whole-body smoothing of Qualisys' walk: violation
  // 1.88, then 307 samples added, then 8.15, then 2.7e5). A solve cut by the iteration cap may still be on
  // its way: the next round resumes from its multipliers. The caller still gets violating(x) for the last
  // solve, and reports that solve's worst row.
  bool stop_when_infeasible = false;
};

struct RefineResult {
  optim::SolveResult solve;      // the last solve (its x is the result)
  std::set<int> torque_samples;  // the samples with torque rows in the last solve
  std::vector<int> violating;    // the last check's violating samples without rows (empty when it held)
  int solves = 0, total_iterations = 0;
  double solver_seconds = 0.0;  // over every solve
};

// RefineOptions::stop_when_infeasible's test: the solve ended infeasible, and not at the iteration cap.
bool ended_infeasible(const optim::SolveResult& solve);

RefineResult refine(const RefineSteps& steps, std::set<int> torque_samples, const RefineOptions& options,
                    const ProgressCallback& progress = {});

}  // namespace mimic::motion
