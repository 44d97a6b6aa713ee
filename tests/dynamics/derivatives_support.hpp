// Shared by tests/dynamics/derivatives_*.cpp: HRP-2 models, random states, central finite differences in
// the tangent space of q, and the error measure used against them.
//
// Error measure. A central difference of a smooth f with step h has error ~ h^2 |f'''| / 6 (truncation)
// + eps |f| / h (round-off), both at the scale of the output, not of the individual entry. So each ROW i
// (one output component) is compared relative to its own largest derivative:
//   err_i = max_k |A_ik - F_ik| / max(max_k |F_ik|, 1e-4 max_ik |F_ik|)
// and the test takes the worst row. The floor: with h = 1e-5 the round-off is ~1e-11 of the output scale,
// so a row that is ~0 in truth (e.g. a component that is identically 0, like the world yaw acceleration of
// a frame above yaw joints only) would show a "relative error" of 1; below 1e-4 of the Jacobian's largest
// entry a row is therefore checked in absolute terms, to 1e-10 of that scale — still far below the error
// of a wrong formula, which is of the size of the row itself. A difference that is zero everywhere has no
// scale at all: the analytic matrix is then compared in absolute terms (it must be zero too, to the test's
// bound in the output's units, typically 1e-6), never skipped.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <functional>
#include <random>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/dynamics/rnea.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/model.hpp"
#include "support/shared_data.hpp"

namespace mimic::test {

using Eigen::MatrixXd;
using Eigen::VectorXd;

inline const model::Model& hrp2(model::RootType root) {
  static const model::Model free_flyer =
      model::load_urdf(hrp2_urdf().string(), model::LoadOptions::hrp2(model::RootType::kFreeFlyer));
  static const model::Model fixed =
      model::load_urdf(hrp2_urdf().string(), model::LoadOptions::hrp2(model::RootType::kFixed));
  return root == model::RootType::kFreeFlyer ? free_flyer : fixed;
}

struct State {
  VectorXd q, v, a;
};

// Random configuration within the limits, velocities and accelerations in [-2, 2] (rad/s, rad/s^2, and
// m/s, m/s^2 for the base): all Coriolis and centrifugal terms well exercised.
inline State random_state(const model::Model& model, std::mt19937& rng) {
  State s;
  s.q = model::random_configuration(model, rng);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  s.v.resize(model.nv);
  s.a.resize(model.nv);
  for (int k = 0; k < model.nv; ++k) s.v[k] = u(rng);
  for (int k = 0; k < model.nv; ++k) s.a[k] = u(rng);
  return s;
}

// Central differences of f along the tangent space of q: column k = (f(q ⊕ h e_k) - f(q ⊕ -h e_k)) / 2h.
inline MatrixXd fd_dq(const model::Model& model, const VectorXd& q, double h,
                      const std::function<VectorXd(const VectorXd&)>& f) {
  const int m = static_cast<int>(f(q).size());
  MatrixXd J(m, model.nv);
  VectorXd e = VectorXd::Zero(model.nv);
  for (int k = 0; k < model.nv; ++k) {
    e[k] = h;
    const VectorXd fp = f(model::integrate(model, q, e));
    e[k] = -h;
    const VectorXd fm = f(model::integrate(model, q, e));
    e[k] = 0.0;
    J.col(k) = (fp - fm) / (2.0 * h);
  }
  return J;
}

// Central differences of f in a vector space.
inline MatrixXd fd_vec(const VectorXd& x, double h, const std::function<VectorXd(const VectorXd&)>& f) {
  const int m = static_cast<int>(f(x).size());
  MatrixXd J(m, x.size());
  VectorXd xp = x;
  for (int k = 0; k < x.size(); ++k) {
    xp[k] = x[k] + h;
    const VectorXd fp = f(xp);
    xp[k] = x[k] - h;
    const VectorXd fm = f(xp);
    xp[k] = x[k];
    J.col(k) = (fp - fm) / (2.0 * h);
  }
  return J;
}

// Worst row-wise relative error (see the file comment).
inline double row_relative_error(const MatrixXd& analytic, const MatrixXd& fd) {
  EXPECT_EQ(analytic.rows(), fd.rows());
  EXPECT_EQ(analytic.cols(), fd.cols());
  // A finite difference that is exactly zero everywhere leaves no scale to be relative to: the analytic
  // entries are then compared in absolute terms (scale 1, in the output's units), so that a spurious
  // non-zero derivative is reported instead of every row being skipped.
  const double floor =
      fd.size() > 0 && fd.cwiseAbs().maxCoeff() > 0.0 ? 1e-4 * fd.cwiseAbs().maxCoeff() : 1.0;
  double worst = 0.0;
  for (int i = 0; i < fd.rows(); ++i) {
    const double scale = std::max(fd.row(i).cwiseAbs().maxCoeff(), floor);
    worst = std::max(worst, (analytic.row(i) - fd.row(i)).cwiseAbs().maxCoeff() / scale);
  }
  return worst;
}

// Random external wrenches (body frames), about the size of a foot reaction: forces up to 300 N,
// moments up to 30 N m.
inline dynamics::ExternalForces random_wrenches(const model::Model& model, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  dynamics::ExternalForces fext(model.nbodies);
  for (auto& f : fext) {
    f.f = 300.0 * spatial::Vec3(u(rng), u(rng), u(rng));
    f.tau = 30.0 * spatial::Vec3(u(rng), u(rng), u(rng));
  }
  return fext;
}

// World-fixed wrenches (world axes, about the world origin) -> the body-frame wrenches rnea() takes at q.
inline dynamics::ExternalForces wrenches_at(const model::Model& model, const VectorXd& q,
                                            const dynamics::ExternalForces& world) {
  model::Data data(model);
  dynamics::forward_kinematics(model, data, q);
  dynamics::ExternalForces local(model.nbodies);
  for (int b = 0; b < model.nbodies; ++b) local[b] = data.oMi[b].act_inv(world[b]);
  return local;
}

// True when dof i supports dof j or j supports i (entry (i, j) may be structurally non-zero).
inline bool related(const model::Model& model, int i, int j) {
  auto body = [&](int k) {
    return k < model.nv - model.nj ? 0 : model::Model::body_of_joint(k - (model.nv - model.nj));
  };
  auto supports = [&](int bi, int bj) {
    for (int b = bj; b >= 0; b = model.parents[b])
      if (b == bi) return true;
    return false;
  };
  return supports(body(i), body(j)) || supports(body(j), body(i));
}

}  // namespace mimic::test
