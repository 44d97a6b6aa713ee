// Data: the scratch memory of the kinematics and dynamics algorithms for one Model (one Data per thread).
// Every buffer is sized once in the constructor, so the algorithms never allocate. Field names follow
// Pinocchio and seed 002 so that the code reads against the equations: body b's placement in its parent
// is liMi[b], in the world oMi[b]; its twist v[b], its acceleration a[b] and the force f[b] transmitted
// by its joint are all in body-b coordinates.
//
// Algorithms that come later (RNEA derivatives, CRBA, ...) add their own workspace either as new fields
// here or, preferably, as a separate struct built from the Model next to their header, reading the
// kinematic quantities below.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/spatial/force.hpp"
#include "mimic/spatial/motion.hpp"
#include "mimic/spatial/se3.hpp"

namespace mimic::model {

struct Model;

struct Data {
  explicit Data(const Model& model);

  // --- kinematics, per body (size nbodies) -------------------------------------------------------------
  std::vector<spatial::SE3> liMi;     // body b in its parent body (joint placement * joint transform)
  std::vector<spatial::SE3> oMi;      // body b in the world
  std::vector<spatial::Motion> v;     // twist of body b, body-b frame
  std::vector<spatial::Motion> a;     // spatial acceleration dv/dt of body b, body-b frame (no gravity)
  std::vector<spatial::Motion> a_gf;  // a[b] - gravity expressed in body b ("gravity field" trick, RNEA)
  std::vector<spatial::Force> f;      // RNEA: force exerted on body b through its joint, body-b frame

  // --- operational frames (size model.frames.size()) ---------------------------------------------------
  std::vector<spatial::SE3> oMf;  // frame in the world (update_frame_placements)

  // --- joint-space results (size nv) --------------------------------------------------------------------
  Eigen::VectorXd tau;  // rnea(): [base wrench (6, base frame) if free-flyer; joint torques (nj)]

  // --- centre of mass and momentum (world frame) --------------------------------------------------------
  double mass = 0.0;                           // total mass
  spatial::Vec3 com = spatial::Vec3::Zero();   // centre of mass
  spatial::Vec3 vcom = spatial::Vec3::Zero();  // its velocity
  spatial::Vec3 acom = spatial::Vec3::Zero();  // its acceleration
  spatial::Force h;                        // total momentum [m vcom; angular momentum about the world origin]
  spatial::Force dh;                       // its time derivative
  std::vector<double> subtree_mass;        // mass of the subtree rooted at body b
  std::vector<spatial::Vec3> subtree_com;  // its centre of mass, world frame
  std::vector<spatial::Force> h_body;      // per-body momentum Y_b v_b, body frame (scratch)

  // --- Jacobian scratch ---------------------------------------------------------------------------------
  Eigen::Matrix<double, 6, Eigen::Dynamic> J;     // 6 x nv
  Eigen::Matrix<double, 3, Eigen::Dynamic> Jcom;  // 3 x nv
};

}  // namespace mimic::model
