// What the motion optimisation receives: a kinematic reference sampled uniformly (seed 000 eqs. (1)-(2)),
// as plain matrices so that this module does not depend on how the reference was made (retarget's
// ReferenceMotion converts with a few assignments: rate, joints, end_effectors, waist).
#pragma once

#include <Eigen/Core>

namespace mimic::motion {

struct MotionInput {
  double rate = 200.0;     // samples per second; sample n is at t = n / rate
  Eigen::MatrixXd joints;  // N x nj: q_c, in the model's joint order (HRP-2: OpenHRP, docs/CONTRACTS.md)
  Eigen::MatrixXd end_effectors;  // N x 9: P_c = [gaze; r_gripper; l_gripper] positions in the waist frame
  Eigen::MatrixXd waist;  // N x 6: the given base motion, x y z roll pitch yaw (spatial/rpy.hpp) in the world
  // Values of the passive joints (legs, grippers; size nj, model order, only the passive entries are
  // read), e.g. the half-sitting pose. Empty: the passive joints follow `joints` sample by sample.
  Eigen::VectorXd rest;

  int sample_count() const { return static_cast<int>(joints.rows()); }
  double duration() const { return sample_count() > 1 ? (sample_count() - 1) / rate : 0.0; }
};

// Throws InputError naming the first inconsistency (sizes against the model's nj joints, rate, non-finite
// values, fewer than 3 samples).
void validate_input(const MotionInput& input, int nj);

}  // namespace mimic::motion
