// Torque residual (seed 000's torque objective, seed 001 eq. (7)): u = tau_j, N m, one residual row per
// listed joint; the problem minimises 1/2 sum_n dt |tau|^2 with the weight sqrt(dt). Free motion, or with
// the ground reaction of seed 001 section III-C when given the feet (joint_torque_rows.hpp).
#pragma once

#include "mimic/terms/joint_torque_rows.hpp"

namespace mimic::terms {

class TorqueResidual : public JointTorqueRows {
 public:
  TorqueResidual(const model::Model& model, std::vector<int> joints, const GroundReaction* ground = nullptr)
      : JointTorqueRows(model, std::move(joints), RowKind::kResidual, ground) {}
};

}  // namespace mimic::terms
