// The inner problem of the augmented Lagrangian method: minimise L~(x; lambda, sigma) of seed 000 eq. (13)
// for fixed multipliers and penalty. Internal to the ALM (augmented_lagrangian.cpp); see its header for
// the formulas.
//
// L~ is a sum of squares up to a constant,
//   1/2 |r|^2 + f0 + sigma/2 |h + lambda_h / sigma|^2 + sigma/2 |max(0, s)|^2,  s = G + lambda_G / sigma,
// (G = [g; lower - x; x - upper]), minimised by Gauss-Newton steps globalised by Levenberg-Marquardt
// damping (Nielsen's update of the damping from the ratio of actual to predicted decrease). The damping
// carries over from one minimize() to the next: between them only the multipliers and the penalty change,
// and restarting from the initial rule (1e-4 of the normal matrix's largest diagonal entry) cost every inner
// solve a few steps of quality ~1 that only brought the damping back down (by 3 per step; the bar walk's
// smoothing 96 -> 42 steps, the torque objective 294 -> 265). A damping too small for the new penalty is
// raised by the ratio test as any other; one above the initial rule's (after a solve that found no step) is
// cut to it. It restarts from the rule at start(). It never falls below 1e-12 of the same largest diagonal
// entry: far below, it no longer bounds the directions the normal matrix hardly determines, and steps along
// them were rejected or bought little (the whole-body walk's smoothing: 131 -> 88 evaluations, the same
// result; alm_subproblem.cpp, kMinDamping).
//
// Each step minimises the piecewise-quadratic model in which r, h, g are linearised but the max() is
// kept: m(d) = 1/2 |r + J_r d|^2 + .. + sigma/2 |max(0, s + J_G d)|^2 + damping/2 |d|^2, by a few
// semismooth-Newton (active-set) iterations on the model alone, each followed by an exact line search
// on the model - each a re-weighting of the normal matrix and a factorisation (normal_solver.hpp), no
// problem evaluation.
// Each of those iterations rebuilds the normal matrix only in the columns whose rows or bounds switched (the
// others hold the same sums, bit for bit) and multiplies only the inequality rows that may switch on: a row
// with s_i + |J_g,i|_1 R < 0, R the largest |d|_inf on the model's path so far (its iterates and the Newton
// points they head for), is off on the whole path, its terms exactly 0, so it is left out of the products,
// the kinks and the model's value ("row screening"). A row the bound no longer certifies is tracked from
// then on, J_g,i d replayed from the moves made (the same products added in the same order). On the torque
// objective 26880 of its 39530 rows are torque limits far from their bounds: J_g p had been a tenth of the
// CPU time. Nothing of the path changes (AugmentedLagrangian.RowScreeningChangesNoBitOfThePath). The
// screening and the tracked rows' products run beside H0 p, on the pool's other thread.
// Constraints that a plain Gauss-Newton step would cross into (or out of) are then accounted for in the step,
// which is exact for linear constraints (joint angle and velocity limits of a spline are linear in its
// control points); without it, every step that activates new limits is rejected or cut and the inner solve
// crawls.
//
// Optionally (set_newton_iterations(k), k > 0; for large-residual problems such as the torque objective, on
// which Gauss-Newton converges only linearly), the step is a truncated Newton step instead: on the active
// set the Gauss-Newton step settled on, a few conjugate-gradient iterations on the model with the exact
// Hessian J^T W J + S + damping I (S: the rows' curvature weighted by the residuals and the multiplier
// estimates, curvature_product.hpp; one problem evaluation per iteration), preconditioned by the
// LDL^T factorisation of the Gauss-Newton matrix that the step computed anyway (Steihaug: stopped at
// negative curvature). The damping, adapted by the same ratio test, keeps it a trust-region method.
//
// Optionally (constructed with residual_curvature, for a problem that has_residual_curvature(); the torque
// objective), each step is a Newton step on the residuals: the model's 1/2 |r + J_r d|^2 gains the exact
// second-order term 1/2 d^T S d, S = sum_i r_i Hess r_i (Problem::evaluate_residual_curvature), which enters
// the normal matrix where hess f0 would (the pattern is J_r^T J_r's, so the factorisation is unchanged). S
// may be indefinite away from a minimum: the Cholesky then refuses the matrix and the Levenberg-Marquardt
// damping grows until it is positive definite (a trust-region safeguard, as for any rejected step), and the
// same ratio test accepts the step. The constraint rows stay Gauss-Newton (linear bounds and velocity rows,
// few active torque limits). On the torque objective Gauss-Newton converges linearly (the residuals stay
// large: gravity), Newton quadratically near the solution. S costs several problem evaluations on the torque
// objective, so it may be lagged (set_residual_curvature_refresh(k)): evaluated at the first step of the
// first minimize() and then every k accepted steps, counted across minimize() calls (S depends on x and the
// residuals only, not on the multipliers and the penalty that change between them); the steps in between
// reuse it (with the current residuals' r + J_r d and the current J_r: only the second-order term is old).
//
// Optionally (set_residual_sizing(true); the torque objective without residual_curvature), the residual block
// of the normal matrix is sized, J_r^T J_r -> c J_r^T J_r, by the secant quotient of the last accepted step
// s,
//   c = s^T (grad f(x + s) - grad f(x)) / (|J_r s|^2 + s^T hess f0 s),  f = 1/2 |r|^2 + f0,
// clipped to [1, 100]: the exact curvature of the objective along s over the Gauss-Newton model's (a scalar
// structured secant correction, the "sizing" of Dennis, Gay & Welsch's NL2SOL, ACM TOMS 7(3), 1981).
// On the torque objective the residuals stay large (gravity) and their own curvature sum r_i Hess r_i
// adds to J_r^T J_r along the steps: measured step qualities (actual / predicted decrease) of 0.1 to 0.5,
// i.e. Gauss-Newton steps up to twice too long, which zig-zag and converge linearly at a rate near 0.9.
// The constraint rows keep their exact weights (bounds and velocity rows are linear). The point the
// inner solve converges to does not depend on c: only the step does (its stationarity test reads the
// true gradient), and the same ratio test accepts or rejects it.
#pragma once

#include <chrono>
#include <optional>
#include <vector>

#include "mimic/core/thread_pool.hpp"
#include "mimic/optim/curvature_product.hpp"
#include "mimic/optim/kkt.hpp"
#include "mimic/optim/normal_equations.hpp"
#include "mimic/optim/normal_solver.hpp"
#include "mimic/optim/problem.hpp"
#include "mimic/optim/solve_result.hpp"

namespace mimic::optim::detail {

enum class InnerOutcome { kStationary, kNoProgress, kIterationLimit, kTimeLimit };

class AlmSubproblem {
 public:
  // `pool` (may be null): threads for the normal-matrix assembly and the model's Jacobian products.
  // `residual_curvature`: Newton steps with the residuals' second-order term (file comment), when the problem
  // has it and no Hessian of f0.
  AlmSubproblem(Problem& problem, core::ThreadPool* pool, bool residual_curvature = false);

  // Evaluates x0; false when its values are not finite.
  bool start(const Eigen::VectorXd& x0);

  // Minimises L~ from the current point until relative stationarity <= tolerance, at most max_steps
  // accepted steps, and no step begun after `deadline` (kTimeLimit). accepted_steps is increased by the steps
  // taken.
  InnerOutcome minimize(
      double tolerance, int max_steps, int& accepted_steps,
      std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

  // Eq. (15), at the current point.
  void update_multipliers();
  // optim::measure_kkt at the current point; right after update_multipliers() from the merit gradient
  // minimize() left (the same numbers, without its three products over the rows), else in full.
  KktMeasures measure_kkt() const;

  void set_penalty(double sigma) {
    sigma_ = sigma;
    gradient_current_ = false;
  }
  // Replaces the multipliers (a warm start); throws std::invalid_argument unless their sizes are the
  // problem's and the inequality and bound ones are >= 0.
  void set_multipliers(const Multipliers& multipliers);
  // At most `iterations` conjugate-gradient iterations of the truncated Newton step (file comment) per step;
  // 0: plain Gauss-Newton steps.
  void set_newton_iterations(int iterations);
  // Residual sizing (file comment) on or off; the scale starts at 1 (plain Gauss-Newton).
  void set_residual_sizing(bool on) { sizing_ = on; }
  bool residual_sizing() const { return sizing_; }
  bool residual_curvature() const { return curvature_term_; }
  int residual_curvature_evaluations() const { return curvature_evaluations_; }
  // S is evaluated at the first step and then every `steps` accepted steps, counted across minimize() calls
  // (file comment); throws std::invalid_argument for steps < 1.
  void set_residual_curvature_refresh(int steps);
  double residual_scale() const { return residual_scale_; }
  int curvature_evaluations() const { return curvature_ ? curvature_->evaluations() : 0; }
  double penalty() const { return sigma_; }
  // The Levenberg-Marquardt damping the last minimize() ended with (< 0 before the first).
  double damping() const { return damping_; }
  // The undamped normal matrix's largest diagonal entry at the first step of the last minimize(): the
  // damping's initial rule and floor (alm_subproblem.cpp) are relative to it.
  double largest_diagonal() const { return largest_diagonal_; }
  const Multipliers& multipliers() const { return multipliers_; }
  const Eigen::VectorXd& x() const { return x_; }
  const Evaluation& evaluation() const { return current_; }
  const Eigen::VectorXd& lower() const { return lower_; }
  const Eigen::VectorXd& upper() const { return upper_; }
  // Problem evaluations, those of the Newton steps' curvature products included.
  int evaluations() const { return evaluations_ + curvature_evaluations(); }
  int factorizations() const { return factorizations_; }
  // Row screening in the model steps (on by default; off: every row is tracked, for tests). Counters over
  // the model steps' iterations: the rows left untracked, and those tracked late with their products
  // replayed.
  void set_row_screening(bool on) { screening_ = on; }
  long screened_rows() const { return screened_rows_; }
  long replayed_rows() const { return replayed_rows_; }

  // max(|h|, max(0, g), distance outside the bounds) at the current point.
  double max_violation() const;
  // |c|^2 over the violated parts (for the initial penalty).
  double squared_violation() const;

 private:
  void evaluate(const Eigen::VectorXd& x, Evaluation& e);
  static bool finite(const Evaluation& e);
  double merit(const Eigen::VectorXd& x, const Evaluation& e) const;
  void merit_gradient(const Eigen::VectorXd& x, const Evaluation& e, Eigen::VectorXd& gradient,
                      Eigen::VectorXd& objective_gradient);
  // The merit gradient from the objective's: gradient = objective_gradient + the constraint terms.
  void constraint_gradient(const Eigen::VectorXd& x, const Evaluation& e,
                           const Eigen::VectorXd& objective_gradient, Eigen::VectorXd& gradient);
  static double relative_stationarity(const Eigen::VectorXd& gradient,
                                      const Eigen::VectorXd& objective_gradient);

  // Linearisation of everything at the current point, used by the model steps.
  void prepare_model();
  // The damped model m(delta_) + damping/2 |delta_|^2, from the cached products H0 delta_ and J_g delta_
  // (constants dropped consistently).
  double model_value(double damping) const;
  // The t in [0, 1] minimising the damped model on delta_ + t p_ (exactly: it is piecewise quadratic).
  double model_line_search(double damping);
  // Minimises the damped model; false when no descent step could be computed at this damping. The
  // predicted decrease is that of the undamped model.
  bool model_step(double damping, Eigen::VectorXd& step, double& predicted_decrease);
  // The truncated Newton step on the active set of the last model_step (its normal matrix, gradient and
  // factorisation); replaces step and predicted_decrease when it lowers the model, else leaves them.
  void newton_step(double damping, Eigen::VectorXd& step, double& predicted_decrease);

  // Residual sizing: the scale from the step x_ -> x_trial_ just accepted (trial_objective_gradient_ set).
  void update_residual_scale();

  Problem& problem_;
  core::ThreadPool* pool_;  // may be null
  bool sizing_ = false;
  double residual_scale_ = 1.0;  // c of the file comment
  Eigen::VectorXd residual_weight_, sizing_step_, sizing_jr_;
  const int n_;
  Eigen::VectorXd lower_, upper_;
  std::vector<int> lower_index_, upper_index_;
  Evaluation current_, trial_;
  EvaluationShape shape_;
  SymmetricMatrix objective_hessian_;  // hess f0, or the residual curvature S (curvature_term_)
  // The model's second-order matrix besides J^T W J: &objective_hessian_ when either is used, else null.
  const SymmetricMatrix* model_hessian_ = nullptr;
  bool curvature_term_ = false;  // Newton steps: S in the model
  int curvature_refresh_ = 1;
  int steps_since_curvature_ = -1;  // accepted steps since S was evaluated; < 0: evaluate at the next step
  int curvature_evaluations_ = 0;
  std::optional<NormalEquations> normal_;
  NormalSolver solver_;
  Multipliers multipliers_;
  double sigma_ = 1.0;
  int evaluations_ = 0;
  int factorizations_ = 0;
  bool factorization_current_ =
      false;  // solver_ holds the factorised normal matrix and rhs_ of the last model_step
  int newton_iterations_ = 0;
  double damping_ = -1.0;  // Levenberg-Marquardt damping, kept across minimize() calls; < 0: from the rule
  double largest_diagonal_ = 0.0;
  std::optional<CurvatureProduct> curvature_;
  CurvatureWeights curvature_weights_;
  Eigen::VectorXd cg_d_, cg_r_, cg_z_, cg_p_, cg_bp_, cg_sp_;

  Eigen::VectorXd x_, x_trial_;
  Eigen::VectorXd gradient_, objective_gradient_, trial_gradient_, trial_objective_gradient_;
  bool objective_gradient_current_ = false;  // objective_gradient_ is grad f at x_
  bool gradient_current_ = false;  // gradient_ is the merit gradient at x_ (current multipliers and penalty)
  bool kkt_gradients_ = false;     // gradient_ is grad_l at x_ for the multipliers (update_multipliers)
  Eigen::VectorXd inequality_factors_;  // per inequality row: its factor in a transposed product

  // Model data at the current point.
  Eigen::VectorXd shifted_equalities_;    // h + lambda_h / sigma
  Eigen::VectorXd shifted_inequalities_;  // g + lambda_g / sigma
  Eigen::VectorXd shifted_lower_;         // (lower - x) + lambda_l / sigma, per entry of lower_index_
  Eigen::VectorXd shifted_upper_;         // (x - upper) + lambda_u / sigma, per entry of upper_index_
  Eigen::VectorXd base_values_;           // H0 = c J_r^T J_r + hess f0 (or S) + sigma J_h^T J_h
  Eigen::VectorXd base_rhs_;              // grad f + sigma J_h^T (h + lambda_h / sigma)
  Eigen::VectorXd ones_r_, zeros_r_, sigma_h_, zeros_h_, weight_g_, zeros_g_;
  // The model's active bounds, per entry of lower_index_ / upper_index_, as last factorised.
  std::vector<char> lower_active_, upper_active_;
  Eigen::VectorXd rhs_;
  Eigen::VectorXd delta_, h0_delta_, jg_delta_;  // model iterate and its products (H0: base_values_)
  Eigen::VectorXd p_, h0_p_, jg_p_;              // search direction and its products
  // Row screening in model_step: J_g d and J_g p are kept only for the inequality rows that may switch on
  // somewhere on the model's path; the others are certified off by |J_g,i d| <= |J_g,i|_1 |d|_inf.
  Eigen::VectorXd inequality_norms_;  // |J_g,i|_1 at the current point (prepare_model)
  std::vector<char> tracked_;         // per inequality row: J_g,i delta_ is kept in jg_delta_
  std::vector<int> tracked_rows_;     // those rows, ascending
  bool tracking_ = false;             // false: every row counts (delta_ = 0, before the first screening)
  bool screening_ = true;
  long screened_rows_ = 0, replayed_rows_ = 0;
  std::vector<Eigen::VectorXd> path_directions_;  // p_ of each move of delta_ in this model_step
  std::vector<double> path_lengths_;              // its t
  // Screens the untracked rows against |d|_inf <= reach over the path so far and the next segment; a row
  // that is not certified off joins tracked_rows_ with its J_g,i delta_ replayed from the moves made.
  void track_rows(double reach);
  struct Kink {
    double t;      // where c + t slope crosses zero
    double c;      // the term's value at t = 0
    double slope;  // its derivative in t
  };
  std::vector<Kink> kinks_;
};

}  // namespace mimic::optim::detail
