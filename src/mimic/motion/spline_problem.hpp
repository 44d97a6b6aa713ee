// The core of the trajectory problems (issue 12, WP11): joint trajectories as quartic B-splines whose
// control points are the variables, rows from terms (src/mimic/terms) evaluated at time samples, and the
// chain rule onto the control points (seed 000 eq. (24)).
//
// What a problem built on it provides:
//  * the parameterization and the sample times (one SampledBasis over all of them), and for each
//    coordinate of the parameterization the model dofs it moves (coordinate_dofs): the partials a term
//    writes in the tangent space map onto the coordinates through map_partials (by default coordinate c
//    takes the partial of its single dof; a problem whose coordinates move the base through a rotation,
//    as the smoothing problem's base x-y, overrides it);
//  * its states: set_state(n, state, data) writes q, v, a (and the contact) of sample n into data.sample
//    from the spline values in data.samples. `state` tells which of the problem's views of the robot a row
//    set needs (the retarget problem imitates in the waist frame and computes torques in the world);
//  * row sets: a TermSum, the state it is evaluated in, and per row whether its weight * scale is applied
//    to the partials before the chain rule or to the chained row after it (the two problems did it in
//    different places; keeping each one's order keeps their outputs bit for bit);
//  * blocks: "row set s at sample n", appended in row order per kind. Residual and equality rows are
//    stacked as the set's rows; each inequality row u with bounds lower < 0 < upper becomes one row per
//    finite bound, u / upper - 1 <= 0 then u / lower - 1 <= 0 (term.hpp; a one-sided row, as the
//    self-collision distance >= d, has one), after the velocity rows (velocity_rows.hpp);
//  * the variable bounds (lower_, upper_).
// The core then gives the sizes, the Jacobian patterns (each row's columns: the basis' slots times the
// coordinates of row_coordinates, by default those whose dofs the term's pattern touches), a const evaluate
// with a SplineProblemData per thread, and the initial guess clamped into the bounds.
// Threads (issue 15): given a pool (set_thread_pool), the non-const evaluate splits the blocks into
// consecutive chunks run on the pool's threads, each thread with a SplineProblemData of its own (it evaluates
// the spline at every sample once per call, which costs little next to the rows). Every block writes only
// its own rows, each computed as without threads: the Evaluation is identical whatever the thread count.
// Both trajectory problems are built on it: MotionProblem (retarget, motion_problem.hpp) and
// SmoothingProblem (smooth, smoothing_problem.hpp).
#pragma once

#include <Eigen/Core>
#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mimic/core/thread_pool.hpp"
#include "mimic/model/model.hpp"
#include "mimic/optim/problem.hpp"
#include "mimic/optim/sparse.hpp"
#include "mimic/terms/sample_data.hpp"
#include "mimic/terms/term_sum.hpp"
#include "mimic/terms/velocity_rows.hpp"
#include "mimic/trajectory/sampled_basis.hpp"
#include "mimic/trajectory/spline_parameterization.hpp"

namespace mimic::motion {

class SplineProblem;

// Everything evaluate writes besides its output: one per thread.
struct SplineProblemData {
  explicit SplineProblemData(const SplineProblem& problem);
  terms::SampleData sample;
  std::vector<std::unique_ptr<terms::TermSumData>> sums;  // one per row set
  trajectory::JointSamples samples;                       // the spline at every sample
  // Chain-rule scratch: the scaled partial rows (nv), the partials on the coordinates and on one row's.
  Eigen::RowVectorXd gq, gv, ga;
  Eigen::VectorXd pq, pv, pa, pqs, pvs, pas;
};

// Where a row set applies its per-row factor (weight * scale, or 1 / bound for inequality rows): to the
// tangent-space partials, or to the chained row (an inequality row is then chained once and multiplied by
// each inverse bound). The two orders round differently; each problem keeps the one it always had.
enum class ScaleOrder { kBeforeChainRule, kAfterChainRule };

class SplineProblem : public optim::Problem {
 public:
  using RowRef = Eigen::Ref<const Eigen::RowVectorXd, 0, Eigen::InnerStride<>>;

  int num_variables() const override { return parameterization_.num_variables(); }
  int num_residuals() const override { return rows_[0]; }
  int num_equalities() const override { return rows_[1]; }
  int num_inequalities() const override { return rows_[2]; }
  void variable_bounds(Eigen::VectorXd& lower, Eigen::VectorXd& upper) const override;
  optim::SparseMatrix residual_jacobian_pattern() const override;
  optim::SparseMatrix equality_jacobian_pattern() const override;
  optim::SparseMatrix inequality_jacobian_pattern() const override;
  // With the problem's own SplineProblemData, one per thread of the pool when one is set (not
  // thread-safe; the const overload is).
  void evaluate(const Eigen::VectorXd& x, bool jacobians, optim::Evaluation& out) override;
  void set_thread_pool(core::ThreadPool* pool) override;
  // The exact second-order term of the free-motion torque residuals (spline_curvature.cpp), when every
  // coordinate is one joint dof moved by the default map_partials; the other residuals count as linear.
  bool has_residual_curvature() const override;
  optim::SymmetricMatrix residual_curvature_pattern() const override;
  void evaluate_residual_curvature(const Eigen::VectorXd& x, const Eigen::VectorXd& weights,
                                   optim::SymmetricMatrix& curvature) override;
  void evaluate(const Eigen::VectorXd& x, bool jacobians, optim::Evaluation& out,
                SplineProblemData& data) const;
  std::unique_ptr<SplineProblemData> create_data() const {
    return std::make_unique<SplineProblemData>(*this);
  }

  const model::Model& model() const { return model_; }
  const trajectory::SplineParameterization& parameterization() const { return parameterization_; }
  const trajectory::SampledBasis& basis() const { return basis_; }
  const std::vector<double>& times() const { return basis_.times(); }
  int sample_count() const { return basis_.num_samples(); }
  int coordinate_count() const { return static_cast<int>(coordinate_dofs_.size()); }

  // A key per row of `kind` (equality or inequality) that names it independently of the rows around it:
  // "velocity <i>" for the velocity rows, else "<sample> <term> <term rows> <row>" (and " upper" or
  // " lower" for an inequality's finite bounds), so that a problem rebuilt with rows added elsewhere
  // (refine.hpp) can find its rows among the earlier problem's.
  std::vector<std::string> row_keys(terms::RowKind kind) const;

  // `x` clamped into the variable bounds (the initial guess of a fit that may leave them).
  Eigen::VectorXd clamped(Eigen::VectorXd x) const;

 protected:
  struct RowSet {
    terms::TermSum sum;
    int state = 0;
    std::array<std::vector<std::vector<int>>, 3> coordinates;  // per kind and row, ascending
    std::array<std::vector<char>, 3> scale_first;              // per kind and row
    Eigen::VectorXd residual_scale, equality_scale, lower, upper;
    // Per inequality row: which bounds are finite (each gets a stored row, the upper one first), and the
    // first stored row of each within the block (size rows + 1: the last entry is the block's count).
    std::vector<char> has_upper, has_lower;
    std::vector<int> inequality_first;
  };
  struct Block {
    int sample = 0;
    int set = 0;
    std::array<int, 3> first = {-1, -1, -1};  // first row of each kind (inequalities: 1 per finite bound)
  };

  // `coordinate_dofs[c]`: the model dofs coordinate c of the parameterization moves.
  SplineProblem(const model::Model& model, trajectory::SplineParameterization parameterization,
                std::vector<double> times, std::vector<std::vector<int>> coordinate_dofs,
                terms::GroundReaction ground = {});

  // The velocity rows come first among the inequalities: set them before adding inequality blocks.
  void set_velocity_rows(terms::VelocityRows rows);
  // Returns the new set's index. `order(term)` tells where that term's rows take their factor.
  int add_row_set(
      terms::TermSum sum, int state,
      const std::function<ScaleOrder(const terms::Term&)>& order = [](const terms::Term&) {
        return ScaleOrder::kBeforeChainRule;
      });
  void add_block(int sample, int set);
  // Sizes the problem's own data; call once the last block is added.
  void finish();

  virtual void set_state(int n, int state, SplineProblemData& data) const = 0;
  // Writes into data.pq, pv, pa (size coordinate_count()) the partials on the coordinates of tangent-space
  // partial rows at sample n. Default: coordinate c takes the partial of coordinate_dofs[c][0].
  virtual void map_partials(int n, const RowRef& gq, const RowRef& gv, const RowRef& ga,
                            SplineProblemData& data) const;
  // The coordinates (ascending) that row `row` of `term` depends on: its Jacobian columns. Default: those
  // whose dofs the term's pattern touches (in q, v or a). Called by add_row_set.
  virtual std::vector<int> row_coordinates(const terms::Term& term, int row) const;

  // The message of velocity row `index` (< velocity().num_rows()) at normalised violation `value`:
  // "<joint> velocity (control polygon near t=... s) exceeds its limit ... rad/s by ... rad/s", where
  // joints[k] is the model joint of the k-th limited coordinate and `limits` the joints' velocity limits.
  std::string describe_velocity_row(int index, double value, const std::vector<int>& joints,
                                    const Eigen::VectorXd& limits) const;

  const std::vector<RowSet>& row_sets() const { return row_sets_; }
  const std::vector<Block>& blocks() const { return blocks_; }
  const terms::VelocityRows& velocity() const { return velocity_; }
  // The block and the row of its set's `kind` rows that row `index` of that kind belongs to (for the
  // inequalities: counted after the velocity rows, and whether it is the upper-bound row); nullptr for a
  // velocity row or an index out of range.
  const Block* block_of(terms::RowKind kind, int index, int& row, bool& upper) const;

  const model::Model& model_;
  trajectory::SplineParameterization parameterization_;
  trajectory::SampledBasis basis_;
  std::vector<std::vector<int>> coordinate_dofs_;
  terms::GroundReaction ground_;
  Eigen::VectorXd lower_, upper_;  // variable bounds, set by the problem

 private:
  friend struct SplineProblemData;
  // The rows a block of `set` stores of `kind` (inequalities: one per finite bound).
  static int stored_rows(const RowSet& set, terms::RowKind kind);
  void add_pattern(optim::PatternBuilder& builder, terms::RowKind kind) const;
  // One row's chained Jacobian values from tangent-space partials and its factor.
  void chain_row(int n, const std::vector<int>& coordinates, const RowRef& gq, const RowRef& gv,
                 const RowRef& ga, double* values, SplineProblemData& data) const;
  // Blocks [first, last) with `data` (whose samples hold the spline at x).
  void evaluate_blocks(std::size_t first, std::size_t last, bool jacobians, optim::Evaluation& out,
                       SplineProblemData& data) const;
  // The rows of one term, whose first row is row `offset` of its set's rows of that kind.
  void write_rows(const Block& block, terms::RowKind kind, int offset, const terms::TermData& rows,
                  bool jacobians, optim::Evaluation& out, SplineProblemData& data) const;
  void write_inequalities(const Block& block, int offset, const terms::TermData& rows, bool jacobians,
                          optim::Evaluation& out, SplineProblemData& data) const;

  terms::VelocityRows velocity_;
  std::vector<RowSet> row_sets_;
  std::vector<Block> blocks_;
  std::array<int, 3> rows_ = {0, 0, 0};
  std::unique_ptr<SplineProblemData> data_;
  core::ThreadPool* pool_ = nullptr;
  std::vector<std::unique_ptr<SplineProblemData>> thread_data_;  // for the pool's workers 1, 2, ..
  // The residual curvature's blocks, groups and scratch (spline_curvature.cpp), built on first use.
  struct Curvature;
  const Curvature& curvature() const;
  mutable std::shared_ptr<Curvature> curvature_;
};

}  // namespace mimic::motion
