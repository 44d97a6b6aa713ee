// Torque limits: -tau_max,j <= tau_j <= tau_max,j, one inequality row per listed joint, N m (the problems
// write them as the normalised pair +-tau_j / tau_max,j - 1 <= 0, term.hpp). Free motion, or with the
// ground reaction when given the feet (joint_torque_rows.hpp).
#pragma once

#include <stdexcept>

#include "mimic/terms/joint_torque_rows.hpp"

namespace mimic::terms {

class TorqueLimits : public JointTorqueRows {
 public:
  // `limits`: tau_max of each listed joint (> 0), N m, already factored (model::scaled_limits).
  TorqueLimits(const model::Model& model, std::vector<int> joints, const Eigen::VectorXd& limits,
               const GroundReaction* ground = nullptr)
      : JointTorqueRows(model, std::move(joints), RowKind::kInequality, ground) {
    if (limits.size() != rows() || !(limits.array() > 0.0).all())
      throw std::invalid_argument("TorqueLimits: one positive limit per joint");
    lower_ = -limits;
    upper_ = limits;
  }
};

}  // namespace mimic::terms
