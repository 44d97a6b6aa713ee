// SampleData: the robot's state at one time sample and what the terms read from it, computed once per
// sample for all the terms of a sum (TermSum::needs()). One per thread; sized once, fill() does not
// allocate.
//
// What fill(needs, partials) computes, in this order and with the same calls as the problems of today
// (so that the terms reproduce their numbers bit for bit):
//  * kKinematics: `data` holds forward_kinematics(q) and every frame placement (oMf). With the ground
//    reaction and no partials, the placements come from contact_wrench's own forward pass instead.
//  * kPlacementDerivatives (partials only): `derivatives` holds the world placements and joint axes at q
//    (oMi, J) for dynamics/frame_derivatives.hpp: from the torque pass when there is one, otherwise from
//    forward_kinematics_derivatives.
//  * kTorques: `joint_torque` (nj, N m) = the joint rows of RNEA(q, v, a) and dtau_dq, dtau_dv, dtau_da
//    (nj x nv) from dynamics::compute_rnea_derivatives, in BOTH modes (so that a problem's values do not
//    depend on whether it asked for partials). The base is moved as q, v, a say; no external force.
//  * kTorquesWithGroundReaction: the same with the ground reaction of seed 001 section III-C
//    (stability/ground_reaction.hpp) on the two feet of `ground`: single support puts the whole contact
//    wrench W = dh/dt - m g on the support foot, double support shares it by the lever rule about
//    `contact`'s sole centres (the planned ones; they do not move with q). Without partials: RNEA with
//    the wrenches of contact_wrench; with partials: the derivative pass with the wrenches held fixed in the
//    world, plus their own dependence on (q, v, a) through the joints that carry a foot.
// kTorques and kTorquesWithGroundReaction exclude each other (TermSum::add refuses the mix).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/dynamics/derivative_data.hpp"
#include "mimic/dynamics/rnea.hpp"
#include "mimic/model/contact_phase.hpp"
#include "mimic/model/data.hpp"
#include "mimic/model/model.hpp"
#include "mimic/spatial/types.hpp"
#include "mimic/terms/term.hpp"

namespace mimic::terms {

// The two bodies that carry the soles, and which joints carry each: what the ground reaction needs of the
// model (stability::Feet gives the bodies).
struct GroundReaction {
  int right_foot_body = -1, left_foot_body = -1;  // -1: no ground reaction available
  GroundReaction() = default;
  GroundReaction(const model::Model& model, int right_foot_body, int left_foot_body);
  bool available() const { return right_foot_body >= 0; }
  // 0: the dof moves the right foot, 1: the left foot, -1: neither (size nv; the base moves both: -1).
  std::vector<int> foot_of_dof;
};

// The contact at the sample: the phase and the planned sole centres (world, m) the lever rule uses.
struct ContactState {
  model::ContactPhase phase = model::ContactPhase::kDoubleSupport;
  spatial::Vec3 right_sole_centre = spatial::Vec3::Zero(), left_sole_centre = spatial::Vec3::Zero();
};

class SampleData {
 public:
  explicit SampleData(const model::Model& model, GroundReaction ground = {});

  // --- inputs, set by the caller before fill() -------------------------------------------------------
  int index = 0;            // the sample's index into the terms' reference tables
  Eigen::VectorXd q, v, a;  // nq, nv, nv
  ContactState contact;     // read with kTorquesWithGroundReaction

  // Computes what `needs` asks for (file comment). Throws std::logic_error for the ground reaction
  // without GroundReaction feet.
  void fill(Needs needs, bool partials);

  const model::Model& model() const { return model_; }

  // --- results ---------------------------------------------------------------------------------------
  model::Data data;
  dynamics::DerivativeData derivatives;
  Eigen::VectorXd joint_torque;               // nj, N m
  Eigen::MatrixXd dtau_dq, dtau_dv, dtau_da;  // nj x nv

 private:
  void fill_torques(bool partials);
  void fill_ground_reaction_torques(bool kinematics, bool partials);

  const model::Model& model_;
  GroundReaction ground_;
  // Scratch of the ground reaction.
  dynamics::ExternalForces fext_;
  dynamics::Matrix6x dW_dq_, dW_dv_, dW_da_;
  Eigen::Matrix<double, 6, Eigen::Dynamic> dWr_dq_, dWr_dv_, dWr_da_, dWl_dq_, dWl_dv_, dWl_da_;
  dynamics::Matrix3x dcom_dq_;
  Eigen::RowVectorXd ds_dq_;
};

}  // namespace mimic::terms
