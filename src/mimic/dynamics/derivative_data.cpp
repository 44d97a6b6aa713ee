// DerivativeData: every buffer sized once from the Model, the support chains precomputed.
#include "mimic/dynamics/derivative_data.hpp"

namespace mimic::dynamics {

DerivativeData::DerivativeData(const model::Model& model)
    : nv(model.nv),
      parent_dof(model.nv, -1),
      body_of_dof(model.nv, 0),
      oMi(model.nbodies),
      ov(model.nbodies),
      oa_gf(model.nbodies),
      ow(model.nbodies),
      oYcrb(model.nbodies),
      oh(model.nbodies),
      of(model.nbodies),
      doIo(model.nbodies, spatial::Mat3::Zero()),
      ofext(model.nbodies),
      Pi(model.nbodies),
      Xi(model.nbodies, spatial::Vec3::Zero()),
      Gamma(model.nbodies),
      J(model.nv),
      dVdq(model.nv),
      dAdq(model.nv),
      dAdv(model.nv),
      Ag(model.nv),
      dFdq(model.nv),
      dFdv(model.nv),
      tau(Eigen::VectorXd::Zero(model.nv)),
      dtau_dq(Eigen::MatrixXd::Zero(model.nv, model.nv)),
      dtau_dv(Eigen::MatrixXd::Zero(model.nv, model.nv)),
      dtau_da(Eigen::MatrixXd::Zero(model.nv, model.nv)),
      vjp_dq(Eigen::VectorXd::Zero(model.nv)),
      vjp_dv(Eigen::VectorXd::Zero(model.nv)),
      vjp_da(Eigen::VectorXd::Zero(model.nv)) {
  // The last dof of the root joint: 5 for the free-flyer (its dofs chain 5 -> ... -> 0), none otherwise.
  const int root_last = model.has_free_flyer() ? 5 : -1;
  for (int c = 1; c <= root_last; ++c) parent_dof[c] = c - 1;
  for (int b = 1; b < model.nbodies; ++b) {
    const int k = model.idx_v(model::Model::joint_of_body(b));
    const int parent = model.parents[b];
    parent_dof[k] = parent == 0 ? root_last : model.idx_v(model::Model::joint_of_body(parent));
    body_of_dof[k] = b;
  }
}

}  // namespace mimic::dynamics
