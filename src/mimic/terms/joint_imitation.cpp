#include "mimic/terms/joint_imitation.hpp"

#include <stdexcept>

#include "mimic/terms/sample_data.hpp"

namespace mimic::terms {

JointImitation::JointImitation(const model::Model& model, std::vector<int> joints, Eigen::MatrixXd reference)
    : Term(model, static_cast<int>(joints.size()), RowKind::kResidual, kNeedsNothing),
      joints_(std::move(joints)),
      reference_(std::move(reference)) {
  if (reference_.rows() != rows()) throw std::invalid_argument("JointImitation: one reference row per joint");
  for (int p = 0; p < rows(); ++p) pattern_.q(p, model.idx_v(joints_[p])) = true;
}

void JointImitation::calc(const SampleData& sample, TermData& data, bool partials) const {
  for (int p = 0; p < rows(); ++p)
    data.value[p] = sample.q[model_.idx_q(joints_[p])] - reference_(p, sample.index);
  if (!partials) return;
  data.dq.setZero();
  data.dv.setZero();
  data.da.setZero();
  for (int p = 0; p < rows(); ++p) data.dq(p, model_.idx_v(joints_[p])) = 1.0;
}

std::string JointImitation::describe(int row) const { return model_.joint_names[joints_[row]] + " angle"; }

}  // namespace mimic::terms
