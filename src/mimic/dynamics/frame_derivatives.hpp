// Derivatives of operational-frame quantities — what the optimiser constrains (support feet, hands, gaze):
// placement (position, orientation error), spatial velocity and spatial acceleration, with respect to q
// (tangent space, rnea_derivatives.hpp convention), v and a.
//
// All functions read a DerivativeData filled by forward_kinematics_derivatives (kinematics_derivatives.hpp)
// or compute_rnea_derivatives at the state of interest; the q-only forward pass suffices for the placement
// derivatives. Output matrices must be sized (3 or 6) x nv; they are overwritten, the columns of dofs that
// do not support the frame being set to 0. No allocation.
//
// Velocities and accelerations are [linear; angular] in the ReferenceFrame of kinematics.hpp, with the
// same values as frame_velocity / frame_acceleration:
//  * kLocal: frame origin and frame axes (body twist); its spatial acceleration is d/dt of that twist;
//  * kLocalWorldAligned: frame origin, world axes (linear part = velocity of the frame origin in world);
//    the acceleration is the kLocal one rotated into world axes (a spatial, not a classical, acceleration:
//    the two agree when the frame is at rest, e.g. for a support foot);
//  * kWorld: world origin and world axes.
// A support foot's "velocity = 0, acceleration = 0" constraint can be written in any of them; kLocal has
// the simplest derivatives (no rotation of the frame's own axes).
#pragma once

#include "mimic/dynamics/derivative_data.hpp"
#include "mimic/spatial/motion.hpp"
#include "mimic/spatial/types.hpp"

namespace mimic::dynamics {

// Placement of a frame in the world, from data.oMi.
spatial::SE3 frame_placement(const Model& model, const DerivativeData& data, int frame);

// p = position of the frame origin in the world; dp_dq (3 x nv) = dp/dq. Column c of a supporting dof is
// the velocity of the frame origin for a unit velocity of dof c: S_c.v + S_c.w × p.
spatial::Vec3 frame_position_derivative(const Model& model, const DerivativeData& data, int frame,
                                        Eigen::Ref<Matrix3x> dp_dq);

// e = log3(R_ref^T R) with R the frame's world orientation, the orientation error in the tangent space of
// SO(3) at R_ref (the rotation vector, in R_ref's axes, that turns R_ref into R); de_dq (3 x nv) = de/dq.
// Perturbing dof c rotates R by exp3(w_c dq) on the left (w_c = S_c.w, world axes), i.e. by
// exp3(R^T w_c dq) on the right, so de/dq_c = jlog3(e) R^T w_c (spatial/explog.hpp: jlog3 is the inverse
// right Jacobian of exp3).
spatial::Vec3 frame_orientation_error_derivative(const Model& model, const DerivativeData& data, int frame,
                                                 const spatial::Mat3& R_ref, Eigen::Ref<Matrix3x> de_dq);

// The frame's twist (in rf) and its partial derivatives dv_dq, dv_dv (6 x nv; dv_dv is the frame
// Jacobian). Needs the q, v, a forward pass.
spatial::Motion frame_velocity_derivatives(const Model& model, const DerivativeData& data, int frame,
                                           ReferenceFrame rf, Eigen::Ref<Matrix6x> dv_dq,
                                           Eigen::Ref<Matrix6x> dv_dv);

// The frame's spatial acceleration (in rf) and its partial derivatives da_dq, da_dv, da_da (6 x nv; da_da
// is the frame Jacobian). Needs the q, v, a forward pass.
spatial::Motion frame_acceleration_derivatives(const Model& model, const DerivativeData& data, int frame,
                                               ReferenceFrame rf, Eigen::Ref<Matrix6x> da_dq,
                                               Eigen::Ref<Matrix6x> da_dv, Eigen::Ref<Matrix6x> da_da);

}  // namespace mimic::dynamics
