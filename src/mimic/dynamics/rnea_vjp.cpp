// Reverse-mode product w^T dtau/d(q, v, a) in O(n) (notation of rnea_derivatives.cpp).
//
// Start from the entries of rnea_derivatives.cpp, with i = body of dof j:
//   j ⪰ k: dtau_j/dq_k = S_j.(Ycrb_i dAdq_k + B_i dVdq_k)      j ≺ k: dtau_j/dq_k = S_j.dFdq_k,
//   dFdq_k = Ycrb_k dAdq_k + B_k dVdq_k + S_k ×* oF_k.
// Summing w_j times them over j, the "j ≺ k" rows only see W_lambda(k) = sum_{j ≺ k} w_j S_j, the virtual
// twist of the parent (a forward recursion like ov, with w in place of v): W_i = W_lambda(i) + S_i w_i.
// The remaining sums regroup body by body, because Ycrb_i = sum_{l ⪰ i} oY_l:
//   sum_{j ⪰ k} w_j Ycrb_i(j) S_j + Ycrb_k W_lambda(k) = sum_{l ⪰ k} oY_l (W_l - W_lambda(k)) + Ycrb_k
//   W_lambda(k)
//                                                     = sum_{l ⪰ k} oY_l W_l                  =: Pi_k,
// and likewise with B (only the angular part of B^T W is non-zero)
//   Xi_k := sum_{l ⪰ k} (B_l^T W_l).w = sum_{l ⪰ k} 2 h_l,f × W_l.v + (dI_o,l/dt) W_l.w + h_l,tau × W_l.w.
// Hence, with Pi_k and Xi_k subtree sums accumulated by the backward pass,
//   (w^T dtau/dq)_k = Pi_k.dAdq_k + Xi_k.dVdq_k.w + W_lambda(k).(S_k ×* oF'_k) [- S_k.Gamma_k]
//   (w^T dtau/dv)_k = Pi_k.dAdv_k + Xi_k.S_k.w
//   (w^T dtau/da)_k = Pi_k.S_k
// where oF' is the transported force and, for world-fixed external wrenches, Gamma_k = sum_{j ⪰ k} w_j
// S_j ×* oFext_i(j) collects their "j ⪰ k" correction -S_k.(S_j ×* oFext_i(j)).
// For the free-flyer's dofs W_lambda = 0 (the world) and dVdq = 0; all 6 support each other, so their
// Gamma contribution is W_0 ×* oFext_0.
#include "mimic/dynamics/rnea_vjp.hpp"

#include <stdexcept>

#include "mimic/dynamics/derivatives_detail.hpp"

namespace mimic::dynamics {

namespace {

using detail::motion_row;
using spatial::Force;
using spatial::Motion;
using spatial::Vec3;

// Forward, body b: its world kinematics (joint_forward, done by the caller), the virtual twist W, and its own
// oY W, (B^T W).w and RNEA force.
template <bool kExt, bool kWorldFixed>
void body_vjp_forward(const Model& model, DerivativeData& d, int b, const ExternalForces* fext) {
  detail::body_forward_no_rate(model, d, b);
  const WorldInertia& Y = d.oYcrb[b];
  const Motion& W = d.ow[b];
  const Force& h = d.oh[b];
  d.Pi[b] = Y * W;
  d.Xi[b] = 2.0 * h.f.cross(W.v) + detail::inertia_rate_times(Y, d.ov[b], W.w) + h.tau.cross(W.w);
  if constexpr (kExt) {
    const Force f = d.oMi[b].act((*fext)[b]);
    d.of[b] -= f;
    if constexpr (kWorldFixed) {
      d.ofext[b] = f;
      d.Gamma[b].setZero();
    }
  }
}

// Forward, body b > 0 after its parent.
template <bool kExt, bool kWorldFixed>
void joint_vjp_forward(const Model& model, DerivativeData& d, int b, const ConfigRef& q, const ConfigRef& v,
                       const ConfigRef& a, const ConfigRef& w, const ExternalForces* fext) {
  const int j = model::Model::joint_of_body(b);
  const int k = model.idx_v(j);
  detail::joint_forward(model, d, b, q[model.idx_q(j)], v[k], a[k]);
  d.ow[b] = d.ow[model.parents[b]] + w[k] * motion_row(d.J, k);
  body_vjp_forward<kExt, kWorldFixed>(model, d, b, fext);
}

template <bool kExt, bool kWorldFixed>
void forward_all(const Model& model, DerivativeData& d, const ConfigRef& q, const ConfigRef& v,
                 const ConfigRef& a, const ConfigRef& w, const ExternalForces* fext) {
  const bool ff = model.has_free_flyer();
  detail::root_forward(model, d, q, ff ? Motion(v.head<3>(), v.segment<3>(3)) : Motion::Zero(),
                       ff ? Motion(a.head<3>(), a.segment<3>(3)) : Motion::Zero());
  d.ow[0] = ff ? d.oMi[0].act(Motion(w.head<3>(), w.segment<3>(3))) : Motion::Zero();
  body_vjp_forward<kExt, kWorldFixed>(model, d, 0, fext);
  for (int b = 1; b < model.nbodies; ++b) joint_vjp_forward<kExt, kWorldFixed>(model, d, b, q, v, a, w, fext);
}

// Backward, body b > 0 (its subtree summed): its dof's tau and vjp entries, then its sums added to its
// parent's.
template <bool kWorldFixed>
void body_backward(const Model& model, DerivativeData& d, const ConfigRef& w, int b) {
  const int parent = model.parents[b];
  const int k = model.idx_v(model::Model::joint_of_body(b));
  const Motion S = motion_row(d.J, k);
  d.tau[k] = S.dot(d.of[b]);
  Force transported = d.of[b];
  double gq = 0.0;
  if constexpr (kWorldFixed) {
    transported += d.ofext[b];
    d.Gamma[b] += w[k] * S.cross(d.ofext[b]);
    gq = -S.dot(d.Gamma[b]);
  }
  gq += motion_row(d.dAdq, k).dot(d.Pi[b]) + d.Xi[b].dot(d.dVdq.row(k).tail<3>().transpose()) +
        d.ow[parent].dot(S.cross(transported));
  d.vjp_dq[k] = gq;
  d.vjp_dv[k] = motion_row(d.dAdv, k).dot(d.Pi[b]) + d.Xi[b].dot(S.w);
  d.vjp_da[k] = S.dot(d.Pi[b]);

  d.of[parent] += d.of[b];
  d.Pi[parent] += d.Pi[b];
  d.Xi[parent] += d.Xi[b];
  if constexpr (kWorldFixed) {
    d.ofext[parent] += d.ofext[b];
    d.Gamma[parent] += d.Gamma[b];
  }
}

// Backward, the free-flyer's 6 dofs (the root summed).
template <bool kWorldFixed>
void root_backward(const Model& model, DerivativeData& d) {
  if (!model.has_free_flyer()) return;
  if constexpr (kWorldFixed) d.Gamma[0] += d.ow[0].cross(d.ofext[0]);
  for (int m = 0; m < 6; ++m) {
    const Motion S = motion_row(d.J, m);
    d.tau[m] = S.dot(d.of[0]);
    double gq = motion_row(d.dAdq, m).dot(d.Pi[0]);
    if constexpr (kWorldFixed) gq -= S.dot(d.Gamma[0]);
    d.vjp_dq[m] = gq;
    d.vjp_dv[m] = motion_row(d.dAdv, m).dot(d.Pi[0]) + d.Xi[0].dot(S.w);
    d.vjp_da[m] = S.dot(d.Pi[0]);
  }
}

// Backward: subtree sums, then the three entries of each dof.
template <bool kWorldFixed>
void backward(const Model& model, DerivativeData& d, const ConfigRef& w) {
  for (int b = model.nbodies - 1; b > 0; --b) body_backward<kWorldFixed>(model, d, w, b);
  root_backward<kWorldFixed>(model, d);
}

template <bool kExt, bool kWorldFixed>
void rnea_vjp_impl(const Model& model, DerivativeData& d, const ConfigRef& q, const ConfigRef& v,
                   const ConfigRef& a, const ConfigRef& w, const ExternalForces* fext) {
  forward_all<kExt, kWorldFixed>(model, d, q, v, a, w, fext);
  backward<kWorldFixed>(model, d, w);
}

void check_sizes(const Model& model, const DerivativeData& d, const ConfigRef& q, const ConfigRef& v,
                 const ConfigRef& a, const ConfigRef& w) {
  if (d.nv != model.nv || q.size() != model.nq || v.size() != model.nv || a.size() != model.nv ||
      w.size() != model.nv)
    throw std::invalid_argument("compute_rnea_vjp: q, v, a, w or the DerivativeData do not match the model");
}

}  // namespace

void compute_rnea_vjp(const Model& model, DerivativeData& data, const ConfigRef& q, const ConfigRef& v,
                      const ConfigRef& a, const ConfigRef& w) {
  check_sizes(model, data, q, v, a, w);
  rnea_vjp_impl<false, false>(model, data, q, v, a, w, nullptr);
}

void compute_rnea_vjp(const Model& model, DerivativeData& data, const ConfigRef& q, const ConfigRef& v,
                      const ConfigRef& a, const ConfigRef& w, const ExternalForces& fext,
                      ExternalForceDependence dependence) {
  check_sizes(model, data, q, v, a, w);
  if (static_cast<int>(fext.size()) != model.nbodies)
    throw std::invalid_argument("compute_rnea_vjp: fext must hold one wrench per body (model.nbodies)");
  if (dependence == ExternalForceDependence::kBodyFixed) {
    rnea_vjp_impl<true, false>(model, data, q, v, a, w, &fext);
  } else {
    rnea_vjp_impl<true, true>(model, data, q, v, a, w, &fext);
  }
}

namespace detail {

void rnea_vjp_forward(const Model& model, DerivativeData& data, const ConfigRef& q, const ConfigRef& v,
                      const ConfigRef& a, const ConfigRef& w) {
  check_sizes(model, data, q, v, a, w);
  forward_all<false, false>(model, data, q, v, a, w, nullptr);
}

void rnea_vjp_forward(const Model& model, DerivativeData& data, const ConfigRef& q, const ConfigRef& v,
                      const ConfigRef& a, const ConfigRef& w, std::span<const int> bodies) {
  for (const int b : bodies) joint_vjp_forward<false, false>(model, data, b, q, v, a, w, nullptr);
}

void rnea_vjp_backward(const Model& model, DerivativeData& data, const ConfigRef& w) {
  backward<false>(model, data, w);
}

void rnea_vjp_backward(const Model& model, DerivativeData& data, const ConfigRef& w,
                       std::span<const BackwardStep> steps) {
  for (const BackwardStep& step : steps) {
    if (step.entries) {
      body_backward<false>(model, data, w, step.body);
    } else {
      const int parent = model.parents[step.body];
      data.of[parent] += data.of[step.body];
      data.Pi[parent] += data.Pi[step.body];
      data.Xi[parent] += data.Xi[step.body];
    }
  }
  root_backward<false>(model, data);
}

}  // namespace detail

}  // namespace mimic::dynamics
