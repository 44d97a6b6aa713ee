// Recursive Newton-Euler inverse dynamics for the branched tree with a free-flyer (seed 000 eqs. (6)-(8),
// written as the forward and backward loops of seed 002 "RNEA").
//
// Returns tau = M(q) a + C(q, v) v + g(q) - sum_b J_b^T fext_b, of size nv:
//  * free-flyer: tau.head(6) is the wrench [force; moment about the BODY origin] in the BODY frame that
//    must act on the base (from the world, e.g. the contacts) to produce the motion; tau.tail(nj) the joint
//    torques (N m) / forces (N);
//  * fixed base: the nj joint torques.
// Gravity is model.gravity (0, 0, -9.81). The result is data.tau; the reference stays valid until the next
// call with the same Data. No allocation. Also fills data.liMi, data.v, data.a_gf (acceleration minus
// gravity, body frames), data.f and data.oMi[0]; the other data.oMi are NOT updated (call
// forward_kinematics for them). q's quaternion must be normalised.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/model.hpp"
#include "mimic/spatial/force.hpp"

namespace mimic::dynamics {

// External wrenches, one per body (size nbodies), each acting ON the body and expressed in the body frame
// (about the body origin), as Pinocchio. Build one with ExternalForces(model.nbodies, Force::Zero()) and
// convert a wrench known at a frame with data.oMi / model.frames[f].placement (see spatial::SE3::act).
using ExternalForces = std::vector<spatial::Force>;

const Eigen::VectorXd& rnea(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v,
                            const ConfigRef& a);
const Eigen::VectorXd& rnea(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v,
                            const ConfigRef& a, const ExternalForces& fext);

// rnea(q, v, 0): Coriolis, centrifugal and gravity terms.
const Eigen::VectorXd& nonlinear_effects(const Model& model, Data& data, const ConfigRef& q,
                                         const ConfigRef& v);
// rnea(q, 0, 0): gravity terms.
const Eigen::VectorXd& gravity_torques(const Model& model, Data& data, const ConfigRef& q);

}  // namespace mimic::dynamics
