#include "mimic/terms/sample_data.hpp"

#include <array>
#include <stdexcept>

#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/com_derivatives.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/dynamics/kinematics_derivatives.hpp"
#include "mimic/dynamics/rnea_derivatives.hpp"
#include "mimic/stability/ground_reaction.hpp"
#include "mimic/terms/dof_tree.hpp"

namespace mimic::terms {

namespace {

using spatial::Force;
using spatial::Vec3;

constexpr int kRight = 0, kLeft = 1;

}  // namespace

GroundReaction::GroundReaction(const model::Model& model, int right_foot_body, int left_foot_body)
    : right_foot_body(right_foot_body), left_foot_body(left_foot_body) {
  foot_of_dof.assign(static_cast<std::size_t>(model.nv), -1);
  for (int dof = model.nv - model.nj; dof < model.nv; ++dof) {
    if (moves(model, dof, right_foot_body)) foot_of_dof[dof] = kRight;
    if (moves(model, dof, left_foot_body)) foot_of_dof[dof] = kLeft;
  }
}

SampleData::SampleData(const model::Model& model, GroundReaction ground)
    : q(Eigen::VectorXd::Zero(model.nq)),
      v(Eigen::VectorXd::Zero(model.nv)),
      a(Eigen::VectorXd::Zero(model.nv)),
      data(model),
      derivatives(model),
      joint_torque(Eigen::VectorXd::Zero(model.nj)),
      dtau_dq(Eigen::MatrixXd::Zero(model.nj, model.nv)),
      dtau_dv(Eigen::MatrixXd::Zero(model.nj, model.nv)),
      dtau_da(Eigen::MatrixXd::Zero(model.nj, model.nv)),
      model_(model),
      ground_(std::move(ground)),
      fext_(static_cast<std::size_t>(model.nbodies), Force::Zero()) {
  const int nv = model.nv;
  for (auto* m : {&dW_dq_, &dW_dv_, &dW_da_}) m->resize(6, nv);
  for (auto* m : {&dWr_dq_, &dWr_dv_, &dWr_da_, &dWl_dq_, &dWl_dv_, &dWl_da_}) m->resize(6, nv);
  dcom_dq_.resize(3, nv);
  ds_dq_.resize(nv);
}

void SampleData::fill(Needs needs, bool partials) {
  const bool kinematics = (needs & kKinematics) != 0;
  if (needs & kTorquesWithGroundReaction) {
    fill_ground_reaction_torques(kinematics, partials);
    return;  // the derivative pass has also left the placements (kPlacementDerivatives)
  }
  if (kinematics) {
    dynamics::forward_kinematics(model_, data, q);
    dynamics::update_frame_placements(model_, data);
  }
  if (needs & kTorques) {
    fill_torques(partials);
  } else if (partials && (needs & kPlacementDerivatives)) {
    dynamics::forward_kinematics_derivatives(model_, derivatives, q);
  }
}

void SampleData::fill_torques(bool partials) {
  // Values from the derivative pass in both modes (file comment of the header).
  static_cast<void>(partials);
  dynamics::compute_rnea_derivatives(model_, derivatives, q, v, a);
  const int nj = model_.nj;
  joint_torque = derivatives.tau.tail(nj);
  dtau_dq = derivatives.dtau_dq.bottomRows(nj);
  dtau_dv = derivatives.dtau_dv.bottomRows(nj);
  dtau_da = derivatives.dtau_da.bottomRows(nj);
}

// Seed 001 III-C with the lever rule, sole centres c_R, c_L at their planned places: single support puts
// W on the support foot; double support gives the right foot
//   W_R = s W + s (1 - s) [0; (c_R - c_L) x f],  s = d_L / (d_L + d_R)
// (the force share s f at c_R plus the share s of the couple left by the two forces; W_L = W - W_R).
void SampleData::fill_ground_reaction_torques(bool kinematics, bool partials) {
  if (!ground_.available())
    throw std::logic_error("SampleData: the ground reaction was asked for without the feet (GroundReaction)");
  const int nj = model_.nj;
  const model::ContactPhase phase = contact.phase;
  const Vec3& cr = contact.right_sole_centre;
  const Vec3& cl = contact.left_sole_centre;
  const auto right_body = static_cast<std::size_t>(ground_.right_foot_body);
  const auto left_body = static_cast<std::size_t>(ground_.left_foot_body);
  const auto share = [&](const Force& W, const Vec3& com, Force& right, Force& left) {
    const double s = stability::right_foot_share(phase, com, cr, cl);
    right.f = s * W.f;
    right.tau = s * W.tau + s * (1.0 - s) * (cr - cl).cross(W.f);
    left.f = W.f - right.f;
    left.tau = W.tau - right.tau;
  };
  Force Wr, Wl;

  if (!partials) {
    const Force W = dynamics::contact_wrench(model_, data, q, v, a);  // forward kinematics too
    share(W, data.com, Wr, Wl);
    for (auto& f : fext_) f.setZero();
    fext_[right_body] = data.oMi[right_body].act_inv(Wr);
    fext_[left_body] = data.oMi[left_body].act_inv(Wl);
    // Placements before rnea (which leaves the oMi as forward_kinematics set them anyway).
    if (kinematics) dynamics::update_frame_placements(model_, data);
    joint_torque = dynamics::rnea(model_, data, q, v, a, fext_).tail(nj);
    return;
  }

  // Share of the right foot and its derivative (double support: through the CoM only).
  double s = phase == model::ContactPhase::kRightSupport ? 1.0 : 0.0;
  ds_dq_.setZero();
  Vec3 com = Vec3::Zero();
  if (phase == model::ContactPhase::kDoubleSupport) {
    com = dynamics::com_derivatives(model_, derivatives, q, dcom_dq_);
    const Eigen::Vector2d u = com.head<2>() - cr.head<2>(), w = com.head<2>() - cl.head<2>();
    const double dr = u.norm(), dl = w.norm(), sum = dr + dl;
    s = stability::right_foot_share(phase, com, cr, cl);
    if (sum > 1e-12 && dr > 1e-12 && dl > 1e-12) {
      const Eigen::Vector2d ds_dcom = (dr * w / dl - dl * u / dr) / (sum * sum);
      ds_dq_.noalias() = ds_dcom.transpose() * dcom_dq_.topRows<2>();
    }
  }
  const Force W = dynamics::contact_wrench_derivatives(model_, derivatives, q, v, a, dW_dq_, dW_dv_, dW_da_);
  share(W, com, Wr, Wl);
  // dW_R = s dW + (W + (1 - 2 s) [0; dc x f]) ds + s (1 - s) [0; dc x df],  dW_L = dW - dW_R.
  const Vec3 dc = cr - cl;
  const double k = s * (1.0 - s);
  Eigen::Matrix<double, 6, 1> ds_column;
  ds_column << W.f, W.tau + (1.0 - 2.0 * s) * dc.cross(W.f);
  const std::array<dynamics::Matrix6x*, 3> dW = {&dW_dq_, &dW_dv_, &dW_da_};
  const std::array<Eigen::Matrix<double, 6, Eigen::Dynamic>*, 3> dWr = {&dWr_dq_, &dWr_dv_, &dWr_da_};
  const std::array<Eigen::Matrix<double, 6, Eigen::Dynamic>*, 3> dWl = {&dWl_dq_, &dWl_dv_, &dWl_da_};
  for (int o = 0; o < 3; ++o) {
    *dWr[o] = s * *dW[o];
    if (k != 0.0) {
      for (int c = 0; c < model_.nv; ++c)
        dWr[o]->col(c).tail<3>() += k * dc.cross(Vec3(dW[o]->col(c).head<3>()));
    }
    if (o == 0) dWr[o]->noalias() += ds_column * ds_dq_;
    *dWl[o] = *dW[o] - *dWr[o];
  }
  for (auto& f : fext_) f.setZero();
  fext_[right_body] = derivatives.oMi[right_body].act_inv(Wr);
  fext_[left_body] = derivatives.oMi[left_body].act_inv(Wl);
  dynamics::compute_rnea_derivatives(model_, derivatives, q, v, a, fext_,
                                     dynamics::ExternalForceDependence::kWorldFixed);
  if (kinematics) {
    dynamics::forward_kinematics(model_, data, q);
    dynamics::update_frame_placements(model_, data);
  }
  joint_torque = derivatives.tau.tail(nj);
  // The wrenches are held fixed in the world by kWorldFixed; their own dependence on (q, v, a) enters
  // through -S_r . dW_foot for the joints r that carry a foot.
  dtau_dq = derivatives.dtau_dq.bottomRows(nj);
  dtau_dv = derivatives.dtau_dv.bottomRows(nj);
  dtau_da = derivatives.dtau_da.bottomRows(nj);
  for (int dof = model_.nv - nj; dof < model_.nv; ++dof) {
    const int foot = ground_.foot_of_dof[static_cast<std::size_t>(dof)];
    if (foot < 0) continue;
    const Eigen::Matrix<double, 1, 6> S = derivatives.J.row(dof);
    const int r = dof - (model_.nv - nj);
    dtau_dq.row(r).noalias() -= S * (foot == kRight ? dWr_dq_ : dWl_dq_);
    dtau_dv.row(r).noalias() -= S * (foot == kRight ? dWr_dv_ : dWl_dv_);
    dtau_da.row(r).noalias() -= S * (foot == kRight ? dWr_da_ : dWl_da_);
  }
}

}  // namespace mimic::terms
