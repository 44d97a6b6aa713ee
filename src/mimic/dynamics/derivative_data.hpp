// DerivativeData: the scratch memory and the results of the derivative algorithms (rnea_derivatives.hpp,
// rnea_vjp.hpp, frame_derivatives.hpp, com_derivatives.hpp, zmp_derivatives.hpp), one per thread, sized
// once from the Model so that no algorithm allocates. It is separate from model::Data on purpose: the
// derivative algorithms run their own forward pass in WORLD coordinates (Carpentier & Mansard 2018, the
// formulation of Pinocchio's computeRNEADerivatives), whereas model::Data holds body-frame quantities.
//
// World-frame formulation. Everything below is expressed at the world origin with world axes ("o" prefix,
// as in Pinocchio). For the 1-DoF joint of dof k moving body i, S_k = oMi.act(s_k) is the joint axis in
// world coordinates (row k of J); the free-flyer's 6 dofs have S = the columns of Ad(oM0), since the base
// velocity is a twist in the base frame. Then, with ⪯ meaning "supports" (is an ancestor or the same):
//   ov_i    = sum_{k ⪯ i} S_k v_k                                  (twist of body i)
//   oa_gf_i = sum_{k ⪯ i} (S_k a_k + ov_k × S_k v_k) - g            (acceleration minus gravity)
// A tangent perturbation dq_k of the configuration moves the subtree of k rigidly by exp(S_k dq_k), which
// gives the per-dof rows (lambda(k) = parent body of dof k, the world for the base dofs):
//   dVdq_k = ov_lambda(k) × S_k
//   dAdq_k = oa_gf_lambda(k) × S_k + ov_lambda(k) × dVdq_k
//   dAdv_k = ov_k × S_k + ov_lambda(k) × S_k
// with which, for every body i in the subtree of k,
//   d ov_i / dq_k    = S_k × ov_i    + dVdq_k
//   d oa_gf_i / dq_k = S_k × oa_gf_i + dAdq_k + dVdq_k × ov_i
//   d oa_gf_i / dv_k = S_k × ov_i    + dAdv_k
// (the "S_k × ..." parts are the rigid transport, which cancels in every frame-invariant quantity). See
// rnea_derivatives.cpp for the backward pass.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/model.hpp"
#include "mimic/spatial/force.hpp"
#include "mimic/spatial/motion.hpp"
#include "mimic/spatial/se3.hpp"

namespace mimic::dynamics {

using Matrix6x = Eigen::Matrix<double, 6, Eigen::Dynamic>;
// Dof-major storage of per-dof spatial vectors: row k is the 6-vector of dof k (the transpose of
// Pinocchio's 6 x nv layout), so that component i of all dofs is contiguous and the O(n d) loops of
// rnea_derivatives.cpp run along the dofs in packed SIMD.
using MatrixX6 = Eigen::Matrix<double, Eigen::Dynamic, 6>;
using Matrix3x = Eigen::Matrix<double, 3, Eigen::Dynamic>;
using Matrix2x = Eigen::Matrix<double, 2, Eigen::Dynamic>;

// A spatial inertia in WORLD coordinates about the world origin, stored by its linear parameters
// (m, m c, I_o) with I_o = I_c - m [c]^2 the rotational inertia about the origin. Its 6x6 matrix is
// [m 1, -[m c]; [m c], I_o] (symmetric), so the inertia of a subtree is the plain sum of its bodies'
// inertias: no parallel-axis theorem in the backward pass.
struct WorldInertia {
  double m = 0.0;
  spatial::Vec3 mc = spatial::Vec3::Zero();
  spatial::Mat3 Io = spatial::Mat3::Zero();

  // Y V = [m v - mc × w; mc × v + I_o w]: the momentum of the twist V.
  spatial::Force operator*(const spatial::Motion& V) const {
    return spatial::Force(m * V.v - mc.cross(V.w), mc.cross(V.v) + Io * V.w);
  }
  WorldInertia& operator+=(const WorldInertia& o) {
    m += o.m;
    mc += o.mc;
    Io += o.Io;
    return *this;
  }
};

struct DerivativeData {
  explicit DerivativeData(const model::Model& model);

  int nv = 0;

  // --- model structure ----------------------------------------------------------------------------------
  // parent_dof[k]: the next dof towards the root on the support of dof k (-1 at the root). For the
  // free-flyer the 6 base dofs form the chain 5 -> 4 -> ... -> 0, so `for (c = k; c >= 0; c =
  // parent_dof[c])` visits every dof supporting dof k (Pinocchio's parents_fromRow).
  std::vector<int> parent_dof;
  std::vector<int> body_of_dof;  // body moved by dof k (0 for the base dofs)
  // The same support chains as runs of consecutive dofs: dof k's support (k included) is the union of
  // [support_first[s], support_first[s] + support_length[s]) for s in [support_offset[k],
  // support_offset[k + 1]). HRP-2's chains are 1 to 3 runs (the base's 6 dofs, the chest, the limb).
  std::vector<int> support_offset, support_first, support_length;
  // Joint placements whose rotation is exactly the identity (all of HRP-2): oR_b is then oR_parent with
  // two columns rotated by the joint angle, no 3x3 product.
  std::vector<unsigned char> placement_rotation_is_identity;
  // Spectral form of each body's rotational inertia about its centre of mass (body axes):
  // I_c = lambda0 1 + sum_{t < n} mu_t u_t u_t^T with lambda0 its smallest eigenvalue, so that the world
  // inertia R I_c R^T = lambda0 1 + sum mu_t (R u_t)(R u_t)^T costs n = 0 (isotropic), 1 (axisymmetric)
  // or 2 outer products. For a diagonal I_c the u_t are coordinate axes and R u_t a column of R.
  struct InertiaSpectrum {
    double lambda0 = 0.0;
    int n = 0;
    double mu[2] = {0.0, 0.0};
    spatial::Vec3 u[2] = {spatial::Vec3::Zero(), spatial::Vec3::Zero()};
    int axis[2] = {-1, -1};  // coordinate axis of u_t (diagonal I_c), -1 for a general direction
  };
  std::vector<InertiaSpectrum> inertia_spectrum;

  // --- forward pass, per body (size nbodies), world frame -----------------------------------------------
  std::vector<spatial::SE3> oMi;       // placement of body i
  std::vector<spatial::Motion> ov;     // twist of body i
  std::vector<spatial::Motion> oa_gf;  // spatial acceleration of body i minus gravity
  std::vector<spatial::Motion> ow;     // rnea_vjp: virtual twist W_i = sum_{k ⪯ i} S_k w_k

  // --- per body, then accumulated over the subtree by the backward pass ---------------------------------
  std::vector<WorldInertia> oYcrb;    // inertia of body i, then of its subtree ("composite rigid body")
  std::vector<spatial::Force> oh;     // momentum oY ov of body i, then of its subtree
  std::vector<spatial::Force> of;     // RNEA force oY oa_gf + ov ×* oh - fext of body i, then of its subtree
  std::vector<spatial::Mat3> doIo;    // time derivative of I_o of body i, then of its subtree
  std::vector<spatial::Force> ofext;  // external wrench on body i (world), then on its subtree
  std::vector<spatial::Force> Pi;     // rnea_vjp: sum over the subtree of oY_l W_l
  std::vector<spatial::Vec3> Xi;      // rnea_vjp: sum over the subtree of the angular part of B_l^T W_l
  std::vector<spatial::Force> Gamma;  // rnea_vjp: sum over the subtree of w_k S_k ×* ofext_subtree

  // --- per dof: row k of each nv x 6 matrix, world frame [linear; angular] (see the file comment) --------
  MatrixX6 J;     // S_k
  MatrixX6 dVdq;  // ov_lambda(k) × S_k
  MatrixX6 dAdq;  // oa_gf_lambda(k) × S_k + ov_lambda(k) × dVdq_k
  MatrixX6 dAdv;  // ov_k × S_k + ov_lambda(k) × S_k
  MatrixX6 Ag;    // oYcrb_k S_k (row k of the transposed centroidal momentum matrix, about the world origin)
  MatrixX6 dFdq;  // d(subtree force of body k)/dq_k
  MatrixX6 dFdv;  // d(subtree force of body k)/dv_k

  // --- the last forward pass of compute_rnea_derivatives / contact_wrench_derivatives (rnea_derivatives.cpp)
  // Its inputs and each body's own oYcrb, oh, of, doIo before the backward pass summed them, so that a
  // second pass at the bitwise same (q, v, a) skips the forward pass and gives bitwise the same results:
  // the ground reaction's torques (terms/sample_data.cpp) take the contact wrench's derivatives first, then
  // the torques' with the feet's wrenches, at one state. root_forward, which every pass of this file family
  // begins with, clears forward_valid; so the cache holds only while nothing else wrote the forward
  // quantities (oMi, ov, oa_gf, J, dVdq, dAdq, dAdv), which only those passes write.
  bool forward_valid = false;
  Eigen::VectorXd forward_q, forward_v, forward_a;
  std::vector<WorldInertia> body_Y;
  std::vector<spatial::Force> body_h, body_f;
  std::vector<spatial::Mat3> body_dIo;
  // And of the backward pass that followed it (any external wrenches, with or without the dtau rows): the
  // parts that do not depend on the forces, kept while forward_valid holds. backward_valid: oYcrb, oh, doIo
  // hold the subtree sums, Ag and dFdv the rows of every dof, and dFdq_free and beta hold, per dof, dFdq
  // without its force transport (S_k ×* oF_k) and beta_k (rnea_derivatives.cpp). The ground reaction's
  // second pass (same state, the feet's wrenches added) then computes only tau, the transport and the rows.
  bool backward_valid = false;
  MatrixX6 dFdq_free;
  Eigen::Matrix<double, Eigen::Dynamic, 3> beta;

  // --- results ------------------------------------------------------------------------------------------
  Eigen::VectorXd tau;      // inverse dynamics, same layout and value as rnea()
  Eigen::MatrixXd dtau_dq;  // nv x nv; entries outside the support pattern are 0 and never written
  Eigen::MatrixXd dtau_dv;
  Eigen::MatrixXd dtau_da;  // = M(q), exactly symmetric
  Eigen::VectorXd vjp_dq;   // rnea_vjp: w^T dtau/dq (tangent space)
  Eigen::VectorXd vjp_dv;   // w^T dtau/dv
  Eigen::VectorXd vjp_da;   // w^T dtau/da = M w
};

}  // namespace mimic::dynamics
