// Ground reaction wrenches of seed 001 section III-C, and the joint torques they imply.
//
// With no other external force, the ground must supply the whole contact wrench W = dh/dt - m g (total
// momentum rate minus gravity; dynamics::contact_wrench). Seed 001 distributes it:
//  * single support: W acts on the support foot;
//  * double support: W is shared in proportion to the distances between the ground projection of the
//    centre of mass and the two sole centres. The paper's sentence leaves the direction open; we use the
//    lever rule, the only reading that is continuous with single support: the foot nearer to the CoM
//    carries more, w_right = d_left / (d_left + d_right), and w_right -> 1 as the CoM reaches the right
//    foot. Each foot's share w_i f of the force acts at its sole centre, and the moment these two forces
//    leave unexplained is shared as free couples with the same weights, so the two wrenches add up to W
//    exactly and the base (free-flyer) row of the inverse dynamics vanishes.
#pragma once

#include <Eigen/Core>

#include "mimic/dynamics/rnea.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/stability/support_polygon.hpp"

namespace mimic::stability {

// The bodies and frames of the two feet.
struct Feet {
  int right_sole_frame = -1, left_sole_frame = -1;
  int right_foot_body = -1, left_foot_body = -1;  // bodies carrying the soles (the ankle-roll links)
  model::SoleRectangle right_outline, left_outline;

  // The description's sole frames (which must be in `model`) and rectangles.
  static Feet from(const model::Model& model, const model::RobotDescription& description);
};

// Share of the contact wrench carried by the right foot (1 in right support, 0 in left support).
double right_foot_share(model::ContactPhase phase, const spatial::Vec3& com, const spatial::Vec3& right_sole,
                        const spatial::Vec3& left_sole);

// Fills `fext` (size model.nbodies, body frames as rnea() expects) with the ground reaction of the feet
// in contact for the motion (q, v, a), and returns the total contact wrench (world axes, about the world
// origin). Runs momentum_rate and forward kinematics on `data`.
spatial::Force ground_reaction_forces(const model::Model& model, model::Data& data, const Feet& feet,
                                      model::ContactPhase phase, const dynamics::ConfigRef& q,
                                      const dynamics::ConfigRef& v, const dynamics::ConfigRef& a,
                                      dynamics::ExternalForces& fext);

// Joint torques (size nj) of the motion with the ground reaction of seed 001 applied: the free-flyer rows
// of the inverse dynamics are then zero up to rounding (returned in `base_residual` if non-null: the
// norm of the base wrench the ground reaction model fails to explain).
Eigen::VectorXd joint_torques_with_ground_reaction(const model::Model& model, model::Data& data,
                                                   const Feet& feet, model::ContactPhase phase,
                                                   const dynamics::ConfigRef& q, const dynamics::ConfigRef& v,
                                                   const dynamics::ConfigRef& a,
                                                   double* base_residual = nullptr);

}  // namespace mimic::stability
