// The given base (waist) motion in the form the dynamics want (docs/CONTRACTS.md): per sample the
// free-flyer configuration [p; quaternion xyzw], its twist [R^T pdot; omega] and the twist's time
// derivative, both in the base frame.
#pragma once

#include <Eigen/Core>

namespace mimic::motion {

struct BaseMotion {
  Eigen::MatrixXd q;  // 7 x N
  Eigen::MatrixXd v;  // 6 x N
  Eigen::MatrixXd a;  // 6 x N
};

// From N x 6 waist samples (x y z roll pitch yaw) at `rate`: velocities by central differences of the
// pose (the relative rotation R_{n-1}^T R_{n+1} for the angular part), accelerations by central
// differences of those velocities; one-sided at the ends.
BaseMotion base_motion_from_waist(const Eigen::MatrixXd& waist, double rate);

}  // namespace mimic::motion
