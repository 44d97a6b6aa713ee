// What the motion optimisation receives: a kinematic reference sampled uniformly (seed 000 eqs. (1)-(2))
// as the spine model::SampledMotion plus its end-effector targets, so that this module does not depend on
// how the reference was made (retarget's ReferenceMotion holds the same three members).
#pragma once

#include <Eigen/Core>

#include "mimic/model/model.hpp"
#include "mimic/model/sampled_motion.hpp"

namespace mimic::motion {

struct MotionInput {
  double rate = 200.0;  // samples per second; motion.times[n] = n / rate
  // q (nq x N): the given base motion (free-flyer) and q_c in the model's joint order (HRP-2: OpenHRP,
  // docs/CONTRACTS.md); v, a from model::differentiate: the base's and the passive joints' rates.
  model::SampledMotion motion;
  Eigen::MatrixXd end_effectors;  // 9 x N: P_c = [gaze; r_gripper; l_gripper] positions in the waist frame
  // Values of the passive joints (legs, grippers; size nj, model order, only the passive entries are
  // read), e.g. the half-sitting pose. Empty: the passive joints follow the motion sample by sample.
  Eigen::VectorXd rest;

  int sample_count() const { return static_cast<int>(motion.size()); }
  double duration() const { return sample_count() > 1 ? (sample_count() - 1) / rate : 0.0; }
  // Joint j's reference angle at sample n.
  double joint(const model::Model& model, int j, int n) const { return motion.q(model.idx_q(j), n); }
};

// Throws InputError naming the first inconsistency (sizes against the model, rate, times not k / rate,
// non-finite values, fewer than 3 samples).
void validate_input(const model::Model& model, const MotionInput& input);

}  // namespace mimic::motion
