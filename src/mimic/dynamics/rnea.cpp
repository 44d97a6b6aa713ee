// Recursive Newton-Euler algorithm (seed 002 "RNEA"; seed 000 eqs. (6)-(8) in the [linear; angular] order):
//   forward, for each body i (parents first):
//     liMi = jointPlacement * exp(S q_i)
//     v_i  = liMi^{-1} v_parent + S qd_i
//     a_i  = liMi^{-1} a_parent + S qdd_i + v_i × S qd_i          (a_0 = base acceleration - g)
//     f_i  = Y_i a_i + v_i ×* Y_i v_i - fext_i
//   backward, for each body i (children first):
//     tau_i = S^T f_i;   f_parent += liMi f_i
// Gravity enters as a fictitious upward acceleration of the root ("a_gf"), so every f_i already contains
// the weight of its subtree. For the free-flyer the root "joint" has S = identity in the base frame, so
// the base wrench is f_0 itself.
#include "mimic/dynamics/rnea.hpp"

#include <stdexcept>

#include "mimic/dynamics/joint_model.hpp"

namespace mimic::dynamics {

using spatial::Force;
using spatial::Motion;

namespace {

// kVelocity / kAcceleration false: v / a are zero and not read (nonlinear_effects, gravity_torques), so
// no zero vector has to be allocated and the corresponding terms are skipped.
template <bool kWithExternal, bool kVelocity, bool kAcceleration>
const Eigen::VectorXd& rnea_impl(const Model& model, Data& data, const ConfigRef& q, const ConfigRef* v,
                                 const ConfigRef* a, const ExternalForces* fext) {
  // A wrong size would read past the vectors in a Release build; three comparisons cost nothing next to
  // the recursion.
  if (q.size() != model.nq || (v && v->size() != model.nv) || (a && a->size() != model.nv) ||
      (fext && static_cast<int>(fext->size()) != model.nbodies)) {
    throw std::invalid_argument("rnea: q needs " + std::to_string(model.nq) + " entries, v and a " +
                                std::to_string(model.nv) + ", external forces one per body (" +
                                std::to_string(model.nbodies) + ")");
  }
  // Root body: base twist/acceleration in the base frame, gravity expressed in the base frame.
  if (model.has_free_flyer()) {
    detail::base_transform(q, data.oMi[0]);
    if constexpr (kVelocity) {
      data.v[0] = Motion(v->head<3>(), v->segment<3>(3));
    } else {
      data.v[0].setZero();
    }
    data.a_gf[0] = Motion(-(data.oMi[0].R.transpose() * model.gravity), spatial::Vec3::Zero());
    if constexpr (kAcceleration) data.a_gf[0] += Motion(a->head<3>(), a->segment<3>(3));
  } else {
    data.oMi[0] = spatial::SE3::Identity();
    data.v[0].setZero();
    data.a_gf[0] = Motion(-model.gravity, spatial::Vec3::Zero());
  }
  data.f[0] = model.inertias[0] * data.a_gf[0];
  if constexpr (kVelocity) data.f[0] += model.inertias[0].vxiv(data.v[0]);
  if constexpr (kWithExternal) data.f[0] -= (*fext)[0];

  for (int b = 1; b < model.nbodies; ++b) {
    const int j = b - 1;
    const int parent = model.parents[b];
    spatial::SE3& liMi = data.liMi[b];
    detail::joint_transform(model, b, q[model.idx_q(j)], liMi);

    Motion& vb = data.v[b];
    Motion& ab = data.a_gf[b];
    ab = liMi.act_inv(data.a_gf[parent]);
    if constexpr (kAcceleration) detail::add_joint_motion(model, b, (*a)[model.idx_v(j)], ab);
    if constexpr (kVelocity) {
      const double vj = (*v)[model.idx_v(j)];
      vb = liMi.act_inv(data.v[parent]);
      detail::add_joint_motion(model, b, vj, vb);
      detail::add_joint_bias(model, b, vb, vj, ab);
    } else {
      vb.setZero();
    }

    const spatial::Inertia& Y = model.inertias[b];
    data.f[b] = Y * ab;
    if constexpr (kVelocity) data.f[b] += Y.vxiv(vb);
    if constexpr (kWithExternal) data.f[b] -= (*fext)[b];
  }

  for (int b = model.nbodies - 1; b > 0; --b) {
    data.tau[model.idx_v(b - 1)] = detail::joint_force(model, b, data.f[b]);
    data.f[model.parents[b]] += data.liMi[b].act(data.f[b]);
  }
  if (model.has_free_flyer()) {
    data.tau.head<3>() = data.f[0].f;
    data.tau.segment<3>(3) = data.f[0].tau;
  }
  return data.tau;
}

}  // namespace

const Eigen::VectorXd& rnea(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v,
                            const ConfigRef& a) {
  return rnea_impl<false, true, true>(model, data, q, &v, &a, nullptr);
}

const Eigen::VectorXd& rnea(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v,
                            const ConfigRef& a, const ExternalForces& fext) {
  if (static_cast<int>(fext.size()) != model.nbodies)
    throw std::invalid_argument("rnea: fext must hold one wrench per body (model.nbodies)");
  return rnea_impl<true, true, true>(model, data, q, &v, &a, &fext);
}

const Eigen::VectorXd& nonlinear_effects(const Model& model, Data& data, const ConfigRef& q,
                                         const ConfigRef& v) {
  return rnea_impl<false, true, false>(model, data, q, &v, nullptr, nullptr);
}

const Eigen::VectorXd& gravity_torques(const Model& model, Data& data, const ConfigRef& q) {
  return rnea_impl<false, false, false>(model, data, q, nullptr, nullptr, nullptr);
}

}  // namespace mimic::dynamics
