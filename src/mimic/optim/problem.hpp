// The nonlinear program every mimic solver runs (docs/CONTRACTS.md, "Optimisation"):
//
//   minimise    f(x) = 1/2 |r(x)|^2 + f0(x)
//   subject to  h(x) = 0,  g(x) <= 0,  lower <= x <= upper,
//
// with least-squares residuals r, an optional scalar objective term f0 (for objectives that are not sums
// of squares, e.g. Hock-Schittkowski 71), equalities h and inequalities g. The factor 1/2 makes the
// gradient J_r^T r and the Gauss-Newton Hessian J_r^T J_r; an integral objective int |e(t)|^2 dt sampled
// every dt is therefore r = sqrt(2 dt) e(t_n).
//
// Every Jacobian is a compressed row-major sparse matrix whose structure is fixed for the whole solve:
// the problem states it once (the *_pattern() methods), the solver allocates the matrices once
// (make_evaluation), and evaluate() only overwrites their values. Solvers see nothing else: the problem
// never knows which solver runs it (the shape of Ipopt's TNLP and Ceres' cost functions).
//
// How a motion problem implements it (x = the free spline control points, see
// trajectory::SplineParameterization; one trajectory::SampledBasis on the evaluation grid):
//   - patterns: for each sample n and each residual / constraint row at n, the columns that
//     SampledBasis::append_columns(n, joints) lists for the joints the row depends on (all joints:
//     the contiguous range first_column(n) .. + column_count(n));
//   - evaluate(): SampledBasis::evaluate(x) gives q, qdot, qddot at every sample; the dynamics give the
//     row values and their partials w.r.t. (q, qdot, qddot); SampledBasis::chain_rule() writes each
//     Jacobian row straight into row_values(jacobian, row) (seed 000 eq. (24));
//   - describe_constraint(): "RARM_JOINT3 velocity at t=1.235 s exceeds its limit by 0.12 rad/s";
//   - scale each constraint by its limit (e.g. g = qdot / qdot_max - 1) so that the solvers' absolute
//     feasibility tolerance is a fraction of every limit;
//   - keep rows with the same columns adjacent (the torques of one sample, x/y/z of a hand position):
//     NormalEquations then assembles them as one dense Gram block;
//   - test it with check_derivatives(problem, x) (derivative_check.hpp).
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <string>

namespace mimic::core {
class ThreadPool;
}

namespace mimic::optim {

// Jacobians: rows = functions, columns = variables, compressed, fixed structure.
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;
// Symmetric matrices (the Hessian of f0, normal equations): lower triangle only, column-major.
using SymmetricMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

enum class ConstraintKind { kEquality, kInequality, kLowerBound, kUpperBound };

// What one evaluation produces. Allocated once per solve by make_evaluation() and reused.
struct Evaluation {
  Eigen::VectorXd residuals;     // r(x)
  Eigen::VectorXd equalities;    // h(x)
  Eigen::VectorXd inequalities;  // g(x)
  double objective_term = 0.0;   // f0(x); stays 0 for pure least-squares problems
  // Written only when jacobians are requested:
  Eigen::VectorXd objective_gradient;  // grad f0 (size n; left at zero when there is no f0)
  SparseMatrix residual_jacobian;      // dr/dx
  SparseMatrix equality_jacobian;      // dh/dx
  SparseMatrix inequality_jacobian;    // dg/dx

  double objective() const { return 0.5 * residuals.squaredNorm() + objective_term; }
};

// Exchanges two evaluations without copying (Eigen 3.4's SparseMatrix has no move operations, so
// std::swap would deep-copy the Jacobians).
void swap(Evaluation& a, Evaluation& b) noexcept;

class Problem {
 public:
  virtual ~Problem() = default;

  virtual int num_variables() const = 0;
  virtual int num_residuals() const { return 0; }
  virtual int num_equalities() const { return 0; }
  virtual int num_inequalities() const { return 0; }
  // Whether f0 exists, and whether its Hessian is available (the ALM uses it in its Newton matrix;
  // without it the ALM's steps on f0 are damped gradient steps).
  virtual bool has_objective_term() const { return false; }
  virtual bool has_objective_hessian() const { return false; }
  // Whether the second-order term of the residuals, S(x; w) = sum_i w_i Hess r_i(x), is available (all of
  // it, or the part of the rows that carry it, e.g. torques; the others count as linear): the ALM's Newton
  // matrix for large-residual least squares (AlmOptions::residual_curvature). Default: no.
  virtual bool has_residual_curvature() const { return false; }

  // Bounds on x (sized n on entry, filled with -inf / +inf); override to set finite ones.
  virtual void variable_bounds(Eigen::VectorXd& lower, Eigen::VectorXd& upper) const;

  // Structures (values ignored), called once per solve. Defaults: no entries. Build them with
  // PatternBuilder (sparse.hpp).
  virtual SparseMatrix residual_jacobian_pattern() const;
  virtual SparseMatrix equality_jacobian_pattern() const;
  virtual SparseMatrix inequality_jacobian_pattern() const;
  virtual SymmetricMatrix objective_hessian_pattern() const;  // lower triangle

  // Values at x into `out` (from make_evaluation(*this)); with `jacobians`, also grad f0 and the values of
  // the three Jacobians, written in place (valuePtr() / row_values()) without touching their structure.
  // May throw; may return non-finite values where the functions are undefined (solvers then step back).
  virtual void evaluate(const Eigen::VectorXd& x, bool jacobians, Evaluation& out) = 0;

  // Threads evaluate() may use from now on (null: the calling thread only); the pool outlives its use, and
  // the solver resets it to null before returning. A problem may split its rows across the pool's threads,
  // but its values must not depend on the thread count (each row computed alone, in the same order of
  // operations). Default: ignored.
  virtual void set_thread_pool(core::ThreadPool* /*pool*/) {}

  // Lower triangle of the Hessian of f0 into `hessian` (structure from objective_hessian_pattern()).
  virtual void evaluate_objective_hessian(const Eigen::VectorXd& x, SymmetricMatrix& hessian);

  // Structure (lower triangle) of S, called once per solve; every pair of variables it holds must also be
  // in the pattern of J_r^T J_r (a residual's Hessian couples only the variables it depends on).
  virtual SymmetricMatrix residual_curvature_pattern() const;
  // Lower triangle of S(x; weights) (weights: one per residual) into `curvature` (structure from
  // residual_curvature_pattern()). Default: throws std::logic_error.
  virtual void evaluate_residual_curvature(const Eigen::VectorXd& x, const Eigen::VectorXd& weights,
                                           SymmetricMatrix& curvature);

  // One line naming constraint `index` of `kind`, given its value: h_i, g_i, or for bounds the amount by
  // which x is outside (> 0 when violated). Default: "inequality 12: g = 0.12 (should be <= 0)".
  virtual std::string describe_constraint(ConstraintKind kind, int index, double value) const;
};

// An Evaluation sized for `problem`, holding its Jacobian patterns.
Evaluation make_evaluation(const Problem& problem);

// The sizes of an Evaluation, recorded when it is made, so that solvers can check cheaply after each
// evaluate() that the problem kept every vector size and Jacobian structure.
class EvaluationShape {
 public:
  explicit EvaluationShape(const Evaluation& e);
  // Throws std::logic_error naming what changed.
  void check(const Evaluation& e) const;

 private:
  Eigen::Index residuals_, equalities_, inequalities_, gradient_;
  Eigen::Index residual_nnz_, equality_nnz_, inequality_nnz_;
};

}  // namespace mimic::optim
