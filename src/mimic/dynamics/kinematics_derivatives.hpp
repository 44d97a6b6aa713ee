// The forward pass of the derivative algorithms on its own (Pinocchio's computeForwardKinematicsDerivatives):
// fills DerivativeData's world-frame placements oMi, twists ov, accelerations oa_gf and the per-dof rows
// J, dVdq, dAdq, dAdv (derivative_data.hpp), from which frame_derivatives.hpp reads the derivatives of
// frame placements, velocities and accelerations. compute_rnea_derivatives leaves the same quantities.
#pragma once

#include "mimic/dynamics/derivative_data.hpp"

namespace mimic::dynamics {

// Placements and joint axes only (oMi, J); ov, oa_gf, dVdq, dAdq, dAdv are set as for v = a = 0.
// Enough for frame_position_derivative and frame_orientation_error_derivative.
void forward_kinematics_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q);
// Everything the frame velocity and acceleration derivatives need.
void forward_kinematics_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q,
                                    const ConfigRef& v, const ConfigRef& a);

}  // namespace mimic::dynamics
