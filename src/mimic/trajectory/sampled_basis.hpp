// The basis of a SplineParameterization precomputed on a fixed time grid (e.g. the 200 Hz output
// grid): for every sample, the (at most 5) free slots whose basis functions are non-zero there and
// their coefficients, plus the weight of the pinned start / end postures. Stored per sample, i.e.
// sparsely: 2 ints and 21 doubles per sample whatever the number of control points.
//
// It is what a motion problem evaluates in its hot loop: q, qdot, qddot at every sample from x, and
// seed 000 eq. (24), the chain rule from d y / d(q, qdot, qddot) at a sample to d y / dx.
#pragma once

#include <Eigen/Core>
#include <array>
#include <span>
#include <vector>

#include "mimic/trajectory/bspline_trajectory.hpp"
#include "mimic/trajectory/spline_parameterization.hpp"

namespace mimic::trajectory {

class SampledBasis {
 public:
  // A view into a vector of partial derivatives, contiguous or strided (e.g. a row of a column-major
  // matrix d tau / d q), indexed like the `joints` argument it comes with.
  using Partials = Eigen::Ref<const Eigen::VectorXd, 0, Eigen::InnerStride<>>;

  // times must lie in [t0, tf] of the parameterization's basis (std::out_of_range otherwise).
  SampledBasis(const SplineParameterization& parameterization, std::vector<double> times);

  int num_samples() const { return static_cast<int>(times_.size()); }
  int num_joints() const { return num_joints_; }
  int num_variables() const { return num_joints_ * num_slots_; }
  const std::vector<double>& times() const { return times_; }
  double time(int sample) const { return times_[sample]; }

  // Free slots at a sample: first_slot(n) .. first_slot(n) + slot_count(n) - 1 (slot_count may be 0
  // near pinned ends).
  int first_slot(int sample) const { return samples_[sample].first_slot; }
  int slot_count(int sample) const { return samples_[sample].slot_count; }
  // d^order/dt^order of the basis function of slot first_slot(n) + k at sample n (order 0, 1, 2).
  double coefficient(int sample, int order, int k) const { return samples_[sample].coefficient[order][k]; }
  // Columns of x that anything at sample n may depend on when it involves every joint: a contiguous
  // range [begin, end), ordered (slot-major, joint-minor).
  int first_column(int sample) const { return first_slot(sample) * num_joints_; }
  int column_count(int sample) const { return slot_count(sample) * num_joints_; }

  // q, qdot, qddot at every sample (num_joints x num_samples). Does not allocate when `out` already
  // has that size.
  void evaluate(const Eigen::VectorXd& x, JointSamples& out) const;

  // Jacobian sparsity of a scalar y(q(t_n), qdot(t_n), qddot(t_n)) that depends on the joints listed in
  // `joints` (strictly ascending): appends its non-zero columns of dy/dx in ascending order
  // (slot-major, then joint), slot_count(n) * joints.size() of them.
  void append_columns(int sample, std::span<const int> joints, std::vector<int>& columns) const;

  // Seed 000 eq. (24): writes dy/dx at the columns of append_columns(sample, joints), in the same order,
  // given dy/dq_j, dy/dqdot_j, dy/dqddot_j for each j in `joints` (entry i of each belongs to joints[i]).
  void chain_rule(int sample, std::span<const int> joints, const Partials& dy_dq, const Partials& dy_dqdot,
                  const Partials& dy_dqddot, double* values) const;

 private:
  struct Sample {
    int first_slot = 0;
    int slot_count = 0;
    std::array<std::array<double, kOrder>, kMaxDerivative + 1> coefficient{};
    std::array<double, kMaxDerivative + 1> start_weight{};  // sum of the pinned start points' basis
    std::array<double, kMaxDerivative + 1> end_weight{};
  };

  int num_joints_;
  int num_slots_;
  Eigen::VectorXd start_position_;  // zero when the start is not pinned (its weights are then zero)
  Eigen::VectorXd end_position_;
  std::vector<double> times_;
  std::vector<Sample> samples_;
};

}  // namespace mimic::trajectory
