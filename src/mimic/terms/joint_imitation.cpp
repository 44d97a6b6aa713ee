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

std::unique_ptr<TermData> JointImitation::create_data() const {
  // The partials are constant: written here once (TermData starts at zero, and only calc writes to it),
  // not cleared and rewritten at every sample (clearing the three rows x nv matrices was a twentieth of the
  // imitation retarget's instructions, issue 15).
  auto data = std::make_unique<TermData>(rows(), model_.nv);
  for (int p = 0; p < rows(); ++p) data->dq(p, model_.idx_v(joints_[p])) = 1.0;
  return data;
}

void JointImitation::calc(const SampleData& sample, TermData& data, bool /*partials*/) const {
  for (int p = 0; p < rows(); ++p)
    data.value[p] = sample.q[model_.idx_q(joints_[p])] - reference_(p, sample.index);
}

std::string JointImitation::describe(int row) const { return model_.joint_names[joints_[row]] + " angle"; }

}  // namespace mimic::terms
