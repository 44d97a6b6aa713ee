#include "mimic/trajectory/sampled_basis.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace mimic::trajectory {

SampledBasis::SampledBasis(const SplineParameterization& parameterization, std::vector<double> times)
    : num_joints_(parameterization.num_joints()),
      num_slots_(parameterization.num_slots()),
      start_position_(Eigen::VectorXd::Zero(num_joints_)),
      end_position_(Eigen::VectorXd::Zero(num_joints_)),
      times_(std::move(times)) {
  if (parameterization.start().condition == EndCondition::kFixedAtRest) {
    start_position_ = parameterization.start().position;
  }
  if (parameterization.end().condition == EndCondition::kFixedAtRest) {
    end_position_ = parameterization.end().position;
  }
  samples_.resize(times_.size());
  for (std::size_t n = 0; n < times_.size(); ++n) {
    const BasisWindow w = parameterization.basis().evaluate(times_[n]);
    Sample& s = samples_[n];
    s.first_slot = -1;
    for (int k = 0; k < kOrder; ++k) {
      const int point = w.first + k;
      const int slot = parameterization.slot_of_control_point(point);
      for (int order = 0; order <= kMaxDerivative; ++order) {
        const double b = w.derivative[order][k];
        if (slot < 0) {
          (parameterization.pinned_to_start(point) ? s.start_weight : s.end_weight)[order] += b;
        } else {
          if (s.first_slot < 0) s.first_slot = slot;
          // Slots are non-decreasing along the control points, so they map to a contiguous local range.
          s.coefficient[order][slot - s.first_slot] += b;
        }
      }
      if (slot >= 0) s.slot_count = slot - s.first_slot + 1;
    }
    if (s.first_slot < 0) s.first_slot = 0;
  }
}

void SampledBasis::evaluate(const Eigen::VectorXd& x, JointSamples& out) const {
  if (x.size() != num_variables()) {
    throw std::invalid_argument("SampledBasis: x has " + std::to_string(x.size()) + " entries, expected " +
                                std::to_string(num_variables()));
  }
  const Eigen::Map<const Eigen::MatrixXd> free(x.data(), num_joints_, num_slots_);
  Eigen::MatrixXd* outputs[] = {&out.q, &out.qdot, &out.qddot};
  for (Eigen::MatrixXd* m : outputs) m->resize(num_joints_, num_samples());
  for (int n = 0; n < num_samples(); ++n) {
    const Sample& s = samples_[n];
    const auto block = free.middleCols(s.first_slot, s.slot_count);
    for (int order = 0; order <= kMaxDerivative; ++order) {
      const Eigen::Map<const Eigen::VectorXd> c(s.coefficient[order].data(), s.slot_count);
      outputs[order]->col(n).noalias() = block * c;
      outputs[order]->col(n) += s.start_weight[order] * start_position_ + s.end_weight[order] * end_position_;
    }
  }
}

void SampledBasis::append_columns(int sample, std::span<const int> joints, std::vector<int>& columns) const {
  const Sample& s = samples_[sample];
  for (int k = 0; k < s.slot_count; ++k) {
    for (const int j : joints) columns.push_back((s.first_slot + k) * num_joints_ + j);
  }
}

void SampledBasis::chain_rule(int sample, std::span<const int> joints, const Partials& dy_dq,
                              const Partials& dy_dqdot, const Partials& dy_dqddot, double* values) const {
  const Sample& s = samples_[sample];
  const auto m = static_cast<Eigen::Index>(joints.size());
  for (int k = 0; k < s.slot_count; ++k) {
    const double b0 = s.coefficient[0][k];
    const double b1 = s.coefficient[1][k];
    const double b2 = s.coefficient[2][k];
    for (Eigen::Index i = 0; i < m; ++i) *values++ = b0 * dy_dq[i] + b1 * dy_dqdot[i] + b2 * dy_dqddot[i];
  }
}

}  // namespace mimic::trajectory
