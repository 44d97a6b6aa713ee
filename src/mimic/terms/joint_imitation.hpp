// Joint imitation (seed 000 eq. (1), first part): u = q_j - q_ref,j(t_n) for the listed joints, rad.
// Residual rows, one per joint; du/dq_j = 1 and nothing else, constant: create_data() writes the partials
// once and calc() the values only. Reads q only (needs nothing).
#pragma once

#include <vector>

#include "mimic/terms/term.hpp"

namespace mimic::terms {

class JointImitation : public Term {
 public:
  // `joints`: model joint indices; `reference`: joints.size() x N, column n is read at SampleData::index n.
  JointImitation(const model::Model& model, std::vector<int> joints, Eigen::MatrixXd reference);

  std::unique_ptr<TermData> create_data() const override;
  void calc(const SampleData& sample, TermData& data, bool partials) const override;
  std::string describe(int row) const override;

 private:
  std::vector<int> joints_;
  Eigen::MatrixXd reference_;
};

}  // namespace mimic::terms
