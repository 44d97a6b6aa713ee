// The joint torques of the listed joints as rows, N m: u = tau_j and its partials, read from SampleData
// (free motion or with the ground reaction, sample_data.hpp). The base of TorqueResidual and TorqueLimits,
// which differ only in their row kind.
//
// Pattern: tau_j = S_j^T (force of the subtree of j) involves the subtree's dofs (its motion) and the
// supporting dofs (the subtree's placement, velocity and acceleration), the base's included. Under the
// ground reaction a joint that carries a foot also feels the whole robot through the contact wrench and
// the CoM in the lever rule: every dof.
#pragma once

#include <vector>

#include "mimic/terms/term.hpp"

namespace mimic::terms {

struct GroundReaction;

class JointTorqueRows : public Term {
 public:
  void calc(const SampleData& sample, TermData& data, bool partials) const override;
  std::string describe(int row) const override;
  const std::vector<int>& joints() const { return joints_; }
  // True for the torques of the free motion (RNEA alone), false for those with the ground reaction.
  bool free_motion() const { return needs() == kTorques; }

 protected:
  // `ground`: the feet when the torques are those with the ground reaction, nullptr for the free motion.
  JointTorqueRows(const model::Model& model, std::vector<int> joints, RowKind kind,
                  const GroundReaction* ground);

  std::vector<int> joints_;
};

}  // namespace mimic::terms
