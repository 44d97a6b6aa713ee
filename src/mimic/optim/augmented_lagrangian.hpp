// Augmented Lagrangian solver, seed 000 section V eqs. (13)-(16) (the same text is seed 001's):
//
//   L~(x, lambda) = f(x) + lambda_H^T H + sigma/2 |H|^2 + lambda_psi^T psi + sigma/2 |psi|^2,
//   psi = max(G, -lambda_psi / sigma)                                                       (13)
//   grad L~ = grad f + (lambda_H + sigma H)^T dH/dx + max(0, lambda_psi + sigma G)^T dG/dx    (14)
//   lambda_H <- lambda_H + sigma H(x_k),  lambda_psi <- lambda_psi + sigma psi(x_k)
//             = max(0, lambda_psi + sigma G(x_k))                                           (15)
//   sigma <- alpha sigma, alpha in [5, 10], until sigma exceeds the cap sigma-bar             (16)
//
// Here H = h, G = [g; lower - x; x - upper] (variable bounds are handled as ALM inequalities) and
// f = 1/2 |r|^2 + f0. Because lambda^T psi + sigma/2 |psi|^2 = 1/(2 sigma) (max(0, lambda + sigma G)^2 -
// lambda^2), L~ is, up to a constant, the sum of squares
//   1/2 |r|^2 + f0 + sigma/2 |h + lambda_H / sigma|^2 + sigma/2 |max(0, G + lambda_psi / sigma)|^2,
// which the inner solve minimises by Gauss-Newton as the paper suggests, globalised by
// Levenberg-Marquardt damping (Nielsen's update), on the normal matrix
//   J_r^T J_r + hess f0 + sigma J_h^T J_h + sigma J_G,active^T J_G,active + mu I
// (sparse, fixed pattern, analysed once, factorised every step: banded Cholesky or sparse LDL^T,
// normal_solver.hpp). Each step accounts
// for the limits it crosses by a few active-set iterations on the linearised model, see
// alm_subproblem.hpp.
//
// Results are measured by kkt.hpp like the Ipopt back end's: feasibility (max violation), stationarity
// of the Lagrangian with the updated multipliers, complementarity. The status says which test ended the
// solve: kConverged (all within tolerance), kMaxIterations, kInfeasible (the violation no longer
// decreasing, with sigma at its cap or while it grows, AlmOptions::detect_stagnation), kStalled (feasible,
// but no step improves stationarity).
//
// Schedule: multipliers are updated by (15) after every inner solve. Penalty (PenaltySchedule):
//   kSeed: eq. (16) as seed 000 states it: sigma <- alpha sigma after every outer iteration
//     until it reaches sigma-bar;
//   kAdaptive: sigma grows by (16) only when the violation did not fall below `violation_decrease` times
//     the previous one (Bertsekas, "Constrained optimization and Lagrange multiplier methods", 1982,
//     sec. 2.2, 0.25), which keeps the inner problems better conditioned on problems that need many outer
//     iterations.
// The inner tolerance tightens tenfold per outer iteration down to the stationarity tolerance.
#pragma once

#include <Eigen/Core>
#include <optional>

#include "mimic/core/progress.hpp"
#include "mimic/core/thread_pool.hpp"
#include "mimic/optim/problem.hpp"
#include "mimic/optim/solve_result.hpp"

namespace mimic::optim {

enum class PenaltySchedule { kSeed, kAdaptive };

// A warm start: the solve begins from these multipliers (sizes of the problem's rows and variables,
// inequality and bound ones >= 0) and this penalty instead of zero multipliers and the initial penalty,
// e.g. a re-solve after rows were added (motion/refine.hpp), which would otherwise first move back to an
// infeasible point while the multipliers are rebuilt.
struct AlmWarmStart {
  Multipliers multipliers;
  // > 0: the first penalty (clipped to max_penalty); <= 0: initial_penalty's rule, as without a warm start
  // (warm multipliers need no large penalty: they already push towards the constraints).
  double penalty = 0.0;
};

struct AlmOptions {
  double feasibility_tolerance = 1e-6;   // on max(|h|, max(0, g), bound excess), in the problem's units
  double stationarity_tolerance = 1e-6;  // on |grad Lagrangian|_inf / max(1, |grad f|_inf)
  int max_outer_iterations = 50;
  int max_inner_iterations = 100;  // accepted Gauss-Newton steps per outer iteration
  double initial_penalty = 0.0;    // sigma_0; <= 0: 10 max(1, |f|) / max(1, |c|^2 / 2) at x0,
                                   // clipped to [1e-8, max_penalty] (Birgin & Martinez, ALGENCAN)
  double penalty_growth = 10.0;    // alpha of eq. (16); the seed recommends 5 to 10
  double max_penalty = 1e8;        // sigma-bar of eq. (16)
  // The library default is the adaptive rule: on small dense problems solved to 1e-8 the seed's schedule
  // reaches sigma-bar within a few iterations and the inner solves stall on the conditioning. The job
  // YAML's default (solver.alm.penalty_schedule: auto) is the seed's, which the imitation converges with,
  // and this one for the torque objective and the whole-body walk's smoothing (pipeline/job_options.cpp).
  PenaltySchedule schedule = PenaltySchedule::kAdaptive;
  double violation_decrease = 0.25;  // kAdaptive: grow sigma unless violation <= this * previous violation
  int infeasible_patience = 3;       // outer iterations at sigma-bar without a 1% decrease of the
                                     // violation before reporting kInfeasible
  // Also report kInfeasible below sigma-bar, after `infeasible_patience` outer iterations in a row that
  // each began with a larger penalty, ended with a stationary inner solve and lowered the violation by
  // less than 1 % (augmented_lagrangian.cpp): an infeasible problem is then reported a few outer
  // iterations after its violation settles instead of after the climb to sigma-bar.
  bool detect_stagnation = true;
  double max_seconds = 0.0;  // wall-time budget: no Gauss-Newton step begins after it (status
                             // kTimeLimit); <= 0: none
  // > 0: each inner step is a truncated Newton step with at most this many conjugate-gradient iterations
  // (one problem evaluation each) on the exact Hessian of L~ (alm_subproblem.hpp), for large-residual
  // least squares on which Gauss-Newton converges only linearly; 0: Gauss-Newton steps.
  int newton_iterations = 0;
  // Gauss-Newton steps with the residual block of the normal matrix sized by the secant curvature of the
  // last step (alm_subproblem.hpp), for large-residual objectives (the torque objective); no extra
  // evaluation. Ignored with newton_iterations > 0, whose exact curvature it would count twice.
  bool residual_sizing = false;
  // Newton steps: the model includes the residuals' exact second-order term sum_i r_i Hess r_i when the
  // problem has it (Problem::has_residual_curvature, alm_subproblem.hpp), for large-residual objectives (the
  // torque objective). Replaces residual_sizing and newton_iterations when the problem has it.
  bool residual_curvature = false;
  // With residual_curvature: the term is evaluated at the first step and then every this many accepted steps,
  // counted across inner solves (it does not depend on the multipliers or the penalty), the steps in between
  // using the last one (a lagged Newton method, Shamanskii's; one
  // evaluation costs several Gauss-Newton steps on the torque objective, alm_subproblem.hpp).
  int residual_curvature_refresh = 1;
  std::optional<AlmWarmStart> warm_start;  // none: zero multipliers and initial_penalty
};

// Minimises `problem` from x0. Reports each outer iteration through `progress` (stage "alm").
// Exceptions thrown by the problem propagate.
// `pool` (optional, see thread_pool.hpp): threads for the normal-matrix assembly; the result does not depend
// on it. The problem's own threads are lent to it by optim::solve (solver.hpp).
SolveResult solve_augmented_lagrangian(Problem& problem, const Eigen::VectorXd& x0,
                                       const AlmOptions& options = {}, const ProgressCallback& progress = {},
                                       core::ThreadPool* pool = nullptr);

}  // namespace mimic::optim
