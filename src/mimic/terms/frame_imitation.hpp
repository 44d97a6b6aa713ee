// Frame imitation (seed 000 eq. (1), second part): u = p_f - p_ref,f(t_n), the world position of each
// listed frame's origin minus its target, m; three rows (x, y, z) per frame. The partials are the linear
// rows of the frame's LOCAL_WORLD_ALIGNED Jacobian. Targets in another frame (the retarget problem's are
// in the waist frame) are reached by the caller's state: with the base at the identity, world = waist.
#pragma once

#include <vector>

#include "mimic/terms/term.hpp"

namespace mimic::terms {

class FrameImitation : public Term {
 public:
  // `frames`: model frame indices; `targets`: 3 frames.size() x N (x, y, z of each frame in turn).
  FrameImitation(const model::Model& model, std::vector<int> frames, Eigen::MatrixXd targets);

  std::unique_ptr<TermData> create_data() const override;
  void calc(const SampleData& sample, TermData& data, bool partials) const override;
  std::string describe(int row) const override;

 private:
  std::vector<int> frames_;
  Eigen::MatrixXd targets_;
};

}  // namespace mimic::terms
