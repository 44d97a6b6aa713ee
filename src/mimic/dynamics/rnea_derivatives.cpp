// Analytic RNEA derivatives by backward accumulation (notation of derivative_data.hpp: world frame, ⪯ =
// "supports", lambda(k) = parent body of dof k, columns S_k, dVdq_k, dAdq_k, dAdv_k).
//
// Inverse dynamics in world coordinates. Body l exerts of_l = oY_l oa_gf_l + ov_l ×* (oY_l ov_l) - ofext_l;
// the joint of dof j (moving body i) transmits the subtree force oF_i = sum_{l ⪰ i} of_l and
// tau_j = S_j . oF_i.
//
// Derivative of one body's force. A tangent step dq_k moves the subtree of k rigidly (everything in it is
// transported by exp(S_k dq_k): d oY = S_k ×* oY - oY S_k×, d ov = S_k × ov, ...) and adds the
// non-transport parts of derivative_data.hpp to ov and oa_gf. Collecting them, with h_l = oY_l ov_l and
// the bias b(V) = V ×* oY V linearised (db = dV ×* h + ov ×* oY dV):
//   d of_l/dq_k = S_k ×* of_l + oY_l dAdq_k + B_l dVdq_k,   d of_l/dv_k = oY_l dAdv_k + B_l S_k,
//   B_l dV = ov_l ×* (oY_l dV) - oY_l (ov_l × dV) + dV ×* h_l = (d/dt oY_l) dV + dV ×* h_l.
// The time derivative of a world inertia is [0, -[d(m c)/dt]; [d(m c)/dt], dI_o/dt] with
// d(m c)/dt = h_f (linear momentum), and dV ×* h = [0, -[h_f]; -[h_f], -[h_tau]] dV, so
//   B_l = [0, -2 [h_f]; 0, dI_o/dt - [h_tau]]
// acts on the angular part of dV only and is linear in (h, dI_o/dt): summed over a subtree it is 15
// numbers (composite momentum oh and composite doIo), not a 6x6 matrix as in Pinocchio's doYcrb.
//
// Torques. With Ycrb_i, B_i the subtree sums (i = body of dof j) and using (S_k × S_j).F + S_j.(S_k ×* F) = 0
// (the transport of S_j cancels the transport of oF_i):
//   j ⪰ k: dtau_j/dq_k = S_j.(Ycrb_i dAdq_k + B_i dVdq_k) = Ag_j.dAdq_k + beta_j.dVdq_k.w
//          dtau_j/dv_k = S_j.(Ycrb_i dAdv_k + B_i S_k)    = Ag_j.dAdv_k + beta_j.S_k.w
//          dtau_j/da_k = S_j.Ycrb_i S_k                   = Ag_j.S_k
//          with Ag_j = Ycrb_i S_j (Ycrb is symmetric) and beta_j = angular part of B_i^T S_j;
//   j ≺ k: the whole subtree of k is inside oF_i, so dtau_j/dx_k = S_j.dF_k with the column of k's subtree
//          dFdq_k = Ycrb_k dAdq_k + B_k dVdq_k + S_k ×* oF_k,  dFdv_k = Ycrb_k dAdv_k + B_k S_k,
//          and dtau_j/da_k = dtau_k/da_j (M is symmetric).
// The free-flyer's 6 dofs all support each other, so its 6x6 blocks use the "j ⪰ k" formulas.
//
// External wrenches. kBodyFixed: ofext_l is transported like the rest, nothing changes. kWorldFixed: ofext_l
// does not move, so its transport must be removed: the transport term of dFdq_k uses oF_k + oFext_k (the
// dynamic part only, oFext = subtree sum of ofext) and the "j ⪰ k" entries gain
//   -d/dq_k (S_j . oFext_i) = -(S_k × S_j).oFext_i = -S_k . gamma_j,   gamma_j = S_j ×* oFext_i.
//
// Cost: one world-frame RNEA forward/backward pass, 4 small products per dof, and 5 dot products of
// 6-vectors per (dof, supporting dof) pair.
#include "mimic/dynamics/rnea_derivatives.hpp"

#include <stdexcept>

#include "mimic/dynamics/derivatives_detail.hpp"

namespace mimic::dynamics {

namespace {

using spatial::Force;
using spatial::Motion;
using spatial::Vec3;

enum class Ext { kNone, kBodyFixed, kWorldFixed };

// Adds the external wrench of body b (given in the body frame) to the forward pass: world coordinates in
// data.ofext[b] (kept for kWorldFixed), subtracted from data.of[b].
template <Ext kExt>
inline void add_external(DerivativeData& d, int b, const ExternalForces* fext) {
  if constexpr (kExt != Ext::kNone) {
    const Force f = d.oMi[b].act((*fext)[b]);
    d.of[b] -= f;
    if constexpr (kExt == Ext::kWorldFixed) d.ofext[b] = f;
  }
}

template <Ext kExt>
inline void accumulate_to_parent(DerivativeData& d, int b, int parent) {
  d.oYcrb[parent] += d.oYcrb[b];
  d.of[parent] += d.of[b];
  d.oh[parent] += d.oh[b];
  d.doIo[parent] += d.doIo[b];
  if constexpr (kExt == Ext::kWorldFixed) d.ofext[parent] += d.ofext[b];
}

// The force whose transport enters dFdq: the subtree force, minus the external wrenches when those stay
// fixed in the world.
template <Ext kExt>
inline Force transported_force(const DerivativeData& d, int b) {
  if constexpr (kExt == Ext::kWorldFixed) return d.of[b] + d.ofext[b];
  return d.of[b];
}

// Column k (dof moving body b, whose subtree sums are complete): tau_k, Ag_k, dFdq_k, dFdv_k.
template <Ext kExt>
inline void dof_columns(DerivativeData& d, int b, int k) {
  const Motion& S = d.J[k];
  const WorldInertia& Y = d.oYcrb[b];
  const Force& h = d.oh[b];
  const spatial::Mat3& dIo = d.doIo[b];
  d.tau[k] = S.dot(d.of[b]);
  d.Ag[k] = Y * S;
  d.dFdv[k] = Y * d.dAdv[k] + detail::apply_B(h, dIo, S.w);
  d.dFdq[k] = Y * d.dAdq[k] + detail::apply_B(h, dIo, d.dVdq[k].w) + S.cross(transported_force<kExt>(d, b));
}

// Row k against every dof c supporting it (c ⪯ k), and the mirrored entries (c, k): see the file comment.
template <Ext kExt>
inline void dof_rows(DerivativeData& d, int b, int k) {
  const int nv = d.nv;
  double* const dq = d.dtau_dq.data();
  double* const dv = d.dtau_dv.data();
  double* const da = d.dtau_da.data();
  const Motion& S = d.J[k];
  const Force& ag = d.Ag[k];
  const Vec3 beta = detail::apply_Bt(d.oh[b], d.doIo[b], S);
  Force gamma;
  if constexpr (kExt == Ext::kWorldFixed) gamma = S.cross(d.ofext[b]);
  const Force& dFdq = d.dFdq[k];
  const Force& dFdv = d.dFdv[k];

  for (int c = k; c >= 0; c = d.parent_dof[c]) {
    const Motion& Sc = d.J[c];
    double lower_q = ag.f.dot(d.dAdq[c].v) + ag.tau.dot(d.dAdq[c].w) + beta.dot(d.dVdq[c].w);
    if constexpr (kExt == Ext::kWorldFixed) lower_q -= Sc.dot(gamma);
    const double lower_v = ag.f.dot(d.dAdv[c].v) + ag.tau.dot(d.dAdv[c].w) + beta.dot(Sc.w);
    const double m = ag.f.dot(Sc.v) + ag.tau.dot(Sc.w);
    dq[c * nv + k] = lower_q;
    dv[c * nv + k] = lower_v;
    da[c * nv + k] = m;
    if (c != k) {
      dq[k * nv + c] = Sc.dot(dFdq);
      dv[k * nv + c] = Sc.dot(dFdv);
      da[k * nv + c] = m;
    }
  }
}

// The free-flyer's 6 dofs (body 0, subtree = the whole robot): tau = base wrench, its columns, and the
// 6x6 blocks, all from the "j ⪰ k" formulas (dVdq = 0 for the base dofs).
template <Ext kExt, bool kRows>
void base_dofs(DerivativeData& d) {
  for (int m = 0; m < 6; ++m) dof_columns<kExt>(d, 0, m);
  if constexpr (kRows) {
    const int nv = d.nv;
    for (int m = 0; m < 6; ++m) {
      const Force& ag = d.Ag[m];
      const Vec3 beta = detail::apply_Bt(d.oh[0], d.doIo[0], d.J[m]);
      Force gamma;
      if constexpr (kExt == Ext::kWorldFixed) gamma = d.J[m].cross(d.ofext[0]);
      for (int c = 0; c < 6; ++c) {
        const Motion& Sc = d.J[c];
        double q_entry = d.dAdq[c].dot(ag);
        if constexpr (kExt == Ext::kWorldFixed) q_entry -= Sc.dot(gamma);
        d.dtau_dq.data()[c * nv + m] = q_entry;
        d.dtau_dv.data()[c * nv + m] = d.dAdv[c].dot(ag) + beta.dot(Sc.w);
        if (c <= m) d.dtau_da.data()[c * nv + m] = d.dtau_da.data()[m * nv + c] = Sc.dot(ag);
      }
    }
  }
}

template <Ext kExt, bool kRows>
void rnea_derivatives_impl(const Model& model, DerivativeData& d, const ConfigRef& q, const ConfigRef& v,
                           const ConfigRef& a, const ExternalForces* fext) {
  const bool ff = model.has_free_flyer();
  detail::root_forward(model, d, q, ff ? Motion(v.head<3>(), v.segment<3>(3)) : Motion::Zero(),
                       ff ? Motion(a.head<3>(), a.segment<3>(3)) : Motion::Zero());
  detail::body_forward(model, d, 0);
  add_external<kExt>(d, 0, fext);
  for (int b = 1; b < model.nbodies; ++b) {
    const int j = model::Model::joint_of_body(b);
    const int k = model.idx_v(j);
    detail::joint_forward(model, d, b, q[model.idx_q(j)], v[k], a[k]);
    detail::body_forward(model, d, b);
    add_external<kExt>(d, b, fext);
  }

  for (int b = model.nbodies - 1; b > 0; --b) {
    const int k = model.idx_v(model::Model::joint_of_body(b));
    dof_columns<kExt>(d, b, k);
    if constexpr (kRows) dof_rows<kExt>(d, b, k);
    accumulate_to_parent<kExt>(d, b, model.parents[b]);
  }
  if (ff) base_dofs<kExt, kRows>(d);
}

void check_sizes(const Model& model, const DerivativeData& d, const ConfigRef& q, const ConfigRef& v,
                 const ConfigRef& a) {
  if (d.nv != model.nv || q.size() != model.nq || v.size() != model.nv || a.size() != model.nv)
    throw std::invalid_argument(
        "compute_rnea_derivatives: q, v, a or the DerivativeData do not match the model");
}

}  // namespace

void compute_rnea_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q,
                              const ConfigRef& v, const ConfigRef& a) {
  check_sizes(model, data, q, v, a);
  rnea_derivatives_impl<Ext::kNone, true>(model, data, q, v, a, nullptr);
}

void compute_rnea_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q,
                              const ConfigRef& v, const ConfigRef& a, const ExternalForces& fext,
                              ExternalForceDependence dependence) {
  check_sizes(model, data, q, v, a);
  if (static_cast<int>(fext.size()) != model.nbodies)
    throw std::invalid_argument(
        "compute_rnea_derivatives: fext must hold one wrench per body (model.nbodies)");
  if (dependence == ExternalForceDependence::kBodyFixed) {
    rnea_derivatives_impl<Ext::kBodyFixed, true>(model, data, q, v, a, &fext);
  } else {
    rnea_derivatives_impl<Ext::kWorldFixed, true>(model, data, q, v, a, &fext);
  }
}

namespace detail {

// The same passes without the O(n d) rows: tau, Ag, dFdq, dFdv for every dof, the free-flyer's included,
// and the root's subtree sums (data.of[0] = contact wrench, data.oYcrb[0], data.oh[0]). With no external
// wrench, d(oF_root)/dx_k is exactly column k of dFdq / dFdv / Ag, since the root's subtree is everything.
void centroidal_derivative_pass(const Model& model, DerivativeData& data, const ConfigRef& q,
                                const ConfigRef& v, const ConfigRef& a) {
  check_sizes(model, data, q, v, a);
  rnea_derivatives_impl<Ext::kNone, false>(model, data, q, v, a, nullptr);
}

}  // namespace detail

}  // namespace mimic::dynamics
