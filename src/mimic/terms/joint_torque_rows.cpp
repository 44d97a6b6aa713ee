#include "mimic/terms/joint_torque_rows.hpp"

#include "mimic/terms/dof_tree.hpp"
#include "mimic/terms/sample_data.hpp"

namespace mimic::terms {

JointTorqueRows::JointTorqueRows(const model::Model& model, std::vector<int> joints, RowKind kind,
                                 const GroundReaction* ground)
    : Term(model, static_cast<int>(joints.size()), kind, ground ? kTorquesWithGroundReaction : kTorques),
      joints_(std::move(joints)) {
  for (int row = 0; row < rows(); ++row) {
    const int joint = joints_[row];
    const int body = model::Model::body_of_joint(joint);
    const bool carries_foot =
        ground && ground->foot_of_dof[static_cast<std::size_t>(model.idx_v(joint))] >= 0;
    for (int dof = 0; dof < model.nv; ++dof) {
      const int other = body_of_dof(model, dof);
      const bool coupled = carries_foot || supports(model, other, body) || supports(model, body, other);
      pattern_.q(row, dof) = pattern_.v(row, dof) = pattern_.a(row, dof) = coupled;
    }
  }
}

void JointTorqueRows::calc(const SampleData& sample, TermData& data, bool partials) const {
  for (int row = 0; row < rows(); ++row) {
    const int j = joints_[row];
    data.value[row] = sample.joint_torque[j];
    if (!partials) continue;
    data.dq.row(row) = sample.dtau_dq.row(j);
    data.dv.row(row) = sample.dtau_dv.row(j);
    data.da.row(row) = sample.dtau_da.row(j);
  }
}

std::string JointTorqueRows::describe(int row) const { return model_.joint_names[joints_[row]] + " torque"; }

}  // namespace mimic::terms
