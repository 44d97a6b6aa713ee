// DerivativeData: every buffer sized once from the Model, the support chains precomputed.
#include "mimic/dynamics/derivative_data.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>

namespace mimic::dynamics {

namespace {

DerivativeData::InertiaSpectrum spectrum_of(const spatial::Mat3& I) {
  DerivativeData::InertiaSpectrum s;
  const bool diagonal = I(0, 1) == 0.0 && I(0, 2) == 0.0 && I(1, 2) == 0.0 && I(1, 0) == 0.0 &&
                        I(2, 0) == 0.0 && I(2, 1) == 0.0;
  std::array<double, 3> lambda;
  std::array<spatial::Vec3, 3> u;
  std::array<int, 3> axis = {0, 1, 2};
  if (diagonal) {
    // Exact: the eigenvalues are the diagonal entries, the eigenvectors the axes.
    std::sort(axis.begin(), axis.end(), [&](int x, int y) { return I(x, x) < I(y, y); });
    for (int t = 0; t < 3; ++t) {
      lambda[t] = I(axis[t], axis[t]);
      u[t] = spatial::Vec3::Unit(axis[t]);
    }
  } else {
    const Eigen::SelfAdjointEigenSolver<spatial::Mat3> eig(I);  // ascending eigenvalues
    for (int t = 0; t < 3; ++t) {
      lambda[t] = eig.eigenvalues()[t];
      u[t] = eig.eigenvectors().col(t);
      axis[t] = -1;
    }
  }
  s.lambda0 = lambda[0];
  for (int t = 1; t < 3; ++t) {
    const double mu = lambda[t] - lambda[0];
    if (mu == 0.0) continue;
    s.mu[s.n] = mu;
    s.u[s.n] = u[t];
    s.axis[s.n] = axis[t];
    ++s.n;
  }
  return s;
}

}  // namespace

DerivativeData::DerivativeData(const model::Model& model)
    : nv(model.nv),
      parent_dof(model.nv, -1),
      body_of_dof(model.nv, 0),
      placement_rotation_is_identity(model.nbodies, 0),
      inertia_spectrum(model.nbodies),
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
      J(MatrixX6::Zero(model.nv, 6)),
      dVdq(MatrixX6::Zero(model.nv, 6)),
      dAdq(MatrixX6::Zero(model.nv, 6)),
      dAdv(MatrixX6::Zero(model.nv, 6)),
      Ag(MatrixX6::Zero(model.nv, 6)),
      dFdq(MatrixX6::Zero(model.nv, 6)),
      dFdv(MatrixX6::Zero(model.nv, 6)),
      forward_q(Eigen::VectorXd::Zero(model.nq)),
      forward_v(Eigen::VectorXd::Zero(model.nv)),
      forward_a(Eigen::VectorXd::Zero(model.nv)),
      body_Y(model.nbodies),
      body_h(model.nbodies),
      body_f(model.nbodies),
      body_dIo(model.nbodies, spatial::Mat3::Zero()),
      dFdq_free(MatrixX6::Zero(model.nv, 6)),
      beta(Eigen::Matrix<double, Eigen::Dynamic, 3>::Zero(model.nv, 3)),
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
  // Runs of consecutive dofs along each support chain (k, parent_dof[k], ... decreasing).
  support_offset.assign(1, 0);
  for (int k = 0; k < nv; ++k) {
    for (int c = k; c >= 0;) {
      int first = c;
      while (parent_dof[first] >= 0 && parent_dof[first] == first - 1) first = parent_dof[first];
      support_first.push_back(first);
      support_length.push_back(c - first + 1);
      c = parent_dof[first];
    }
    support_offset.push_back(static_cast<int>(support_first.size()));
  }
  for (int b = 0; b < model.nbodies; ++b) {
    placement_rotation_is_identity[b] = model.joint_placements[b].R == spatial::Mat3::Identity();
    inertia_spectrum[b] = spectrum_of(model.inertias[b].inertia_com);
  }
}

}  // namespace mimic::dynamics
