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

#include <cstddef>
#include <cstring>
#include <stdexcept>

#include "mimic/dynamics/derivatives_detail.hpp"

namespace mimic::dynamics {

namespace {

using spatial::Force;
using spatial::Motion;
using spatial::Vec3;
using spatial::Vec6;

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

// Row k of Ag, dFdq, dFdv and tau_k for the dof k moving body b, whose subtree sums are complete.
template <Ext kExt>
inline void dof_columns(DerivativeData& d, int b, int k) {
  const Motion S = detail::motion_row(d.J, k);
  const WorldInertia& Y = d.oYcrb[b];
  const Force& h = d.oh[b];
  const spatial::Mat3& dIo = d.doIo[b];
  d.tau[k] = S.dot(d.of[b]);
  detail::set_row(d.Ag, k, Y * S);
  detail::set_row(d.dFdq, k,
                  Y * detail::motion_row(d.dAdq, k) + detail::apply_B(h, dIo, detail::motion_row(d.dVdq, k).w) +
                      S.cross(transported_force<kExt>(d, b)));
  detail::set_row(d.dFdv, k, Y * detail::motion_row(d.dAdv, k) + detail::apply_B(h, dIo, S.w));
}

// The pair loop runs along the supporting dofs c, two at a time: T is a pair of doubles (GCC/Clang vector
// extension, one SSE2 register) or, for the odd last dof of a run, a plain double. The arithmetic is
// written once for both.
#if defined(__GNUC__)
using Pair = double __attribute__((vector_size(16)));
constexpr int kPairWidth = 2;
inline Pair splat(double x, Pair) { return Pair{x, x}; }
inline Pair load(const double* p, Pair) {
  Pair x;
  std::memcpy(&x, p, sizeof x);
  return x;
}
inline void store(double* p, Pair x) { std::memcpy(p, &x, sizeof x); }
inline void store_strided(double* p, std::ptrdiff_t stride, Pair x) {
  p[0] = x[0];
  p[stride] = x[1];
}
#endif
inline double splat(double x, double) { return x; }
inline double load(const double* p, double) { return *p; }
inline void store(double* p, double x) { *p = x; }
inline void store_strided(double* p, std::ptrdiff_t, double x) { *p = x; }

// Row-side data of dof k — Ag_k, beta_k (angular part), dFdq_k, dFdv_k, gamma_k (world-fixed wrenches) —
// each scalar replicated in every lane of T once per row.
template <typename T>
struct RowSide {
  T ag[6], beta[3], fq[6], fv[6], gamma[6];
  RowSide(const double* ag_, const double* beta_, const double* fq_, const double* fv_, const double* gamma_) {
    const T z{};
    for (int i = 0; i < 6; ++i) {
      ag[i] = splat(ag_[i], z);
      fq[i] = splat(fq_[i], z);
      fv[i] = splat(fv_[i], z);
      gamma[i] = splat(gamma_[i], z);
    }
    for (int i = 0; i < 3; ++i) beta[i] = splat(beta_[i], z);
  }
};

// Base pointers of the dof-major column-side data: component i of dof c is at p[i * nv + c].
struct ColumnSide {
  const double* __restrict S;
  const double* __restrict dVdq;
  const double* __restrict dAdq;
  const double* __restrict dAdv;
  std::ptrdiff_t nv;
};

// The entries of dofs c .. c + lanes(T) - 1 of a run supporting dof k:
//   column k: (c, k) = S_c . dFdq_k, S_c . dFdv_k, S_c . Ag_k;
//   row k:    (k, c) = Ag_k . dAdq_c + beta_k . dVdq_c [- gamma_k . S_c], Ag_k . dAdv_c + beta_k . S_c, M.
// For c = k both formulas are valid; the row-k ("j ⪰ k") value is stored last.
template <typename T, bool kWorldFixed>
inline void pair_entries(const ColumnSide& x, const RowSide<T>& r, std::ptrdiff_t k, std::ptrdiff_t c,
                         double* __restrict dq, double* __restrict dv, double* __restrict da) {
  const std::ptrdiff_t n = x.nv;
  const T z{};
  T S[6], A[6], V[6];
  for (int i = 0; i < 6; ++i) {
    S[i] = load(x.S + i * n + c, z);
    A[i] = load(x.dAdq + i * n + c, z);
    V[i] = load(x.dAdv + i * n + c, z);
  }
  const T W3 = load(x.dVdq + 3 * n + c, z), W4 = load(x.dVdq + 4 * n + c, z), W5 = load(x.dVdq + 5 * n + c, z);
  const T col_q = r.fq[0] * S[0] + r.fq[1] * S[1] + r.fq[2] * S[2] + r.fq[3] * S[3] + r.fq[4] * S[4] + r.fq[5] * S[5];
  const T col_v = r.fv[0] * S[0] + r.fv[1] * S[1] + r.fv[2] * S[2] + r.fv[3] * S[3] + r.fv[4] * S[4] + r.fv[5] * S[5];
  const T m = r.ag[0] * S[0] + r.ag[1] * S[1] + r.ag[2] * S[2] + r.ag[3] * S[3] + r.ag[4] * S[4] + r.ag[5] * S[5];
  T row_q = r.ag[0] * A[0] + r.ag[1] * A[1] + r.ag[2] * A[2] + r.ag[3] * A[3] + r.ag[4] * A[4] + r.ag[5] * A[5] +
            r.beta[0] * W3 + r.beta[1] * W4 + r.beta[2] * W5;
  if constexpr (kWorldFixed)
    row_q -= r.gamma[0] * S[0] + r.gamma[1] * S[1] + r.gamma[2] * S[2] + r.gamma[3] * S[3] + r.gamma[4] * S[4] +
             r.gamma[5] * S[5];
  const T row_v = r.ag[0] * V[0] + r.ag[1] * V[1] + r.ag[2] * V[2] + r.ag[3] * V[3] + r.ag[4] * V[4] +
                  r.ag[5] * V[5] + r.beta[0] * S[3] + r.beta[1] * S[4] + r.beta[2] * S[5];
  store(dq + k * n + c, col_q);
  store(dv + k * n + c, col_v);
  store(da + k * n + c, m);
  store_strided(dq + c * n + k, n, row_q);
  store_strided(dv + c * n + k, n, row_v);
  store_strided(da + c * n + k, n, m);
}

// Row k against every dof c supporting it (c ⪯ k), and the mirrored entries (c, k): see the file comment.
// The support is walked run by run (DerivativeData::support_*), two dofs at a time.
template <Ext kExt>
inline void dof_rows(DerivativeData& d, int b, int k) {
  constexpr bool kWorld = kExt == Ext::kWorldFixed;
  double ag[6], fq[6], fv[6], beta[3], gamma[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  for (int i = 0; i < 6; ++i) {
    ag[i] = d.Ag(k, i);
    fq[i] = d.dFdq(k, i);
    fv[i] = d.dFdv(k, i);
  }
  const Vec3 beta_w = detail::apply_Bt(d.oh[b], d.doIo[b], detail::motion_row(d.J, k));
  for (int i = 0; i < 3; ++i) beta[i] = beta_w[i];
  if constexpr (kWorld) {
    const Force g = detail::motion_row(d.J, k).cross(d.ofext[b]);
    for (int i = 0; i < 3; ++i) {
      gamma[i] = g.f[i];
      gamma[3 + i] = g.tau[i];
    }
  }
  const ColumnSide x{d.J.data(), d.dVdq.data(), d.dAdq.data(), d.dAdv.data(), d.nv};
  const RowSide<double> r1(ag, beta, fq, fv, gamma);
#if defined(__GNUC__)
  const RowSide<Pair> r2(ag, beta, fq, fv, gamma);
#endif
  double* const dq = d.dtau_dq.data();
  double* const dv = d.dtau_dv.data();
  double* const da = d.dtau_da.data();
  for (int run = d.support_offset[k]; run < d.support_offset[k + 1]; ++run) {
    int c = d.support_first[run];
    const int last = c + d.support_length[run];
#if defined(__GNUC__)
    for (; c + kPairWidth <= last; c += kPairWidth) pair_entries<Pair, kWorld>(x, r2, k, c, dq, dv, da);
#endif
    for (; c < last; ++c) pair_entries<double, kWorld>(x, r1, k, c, dq, dv, da);
  }
}

// The free-flyer's 6 dofs (body 0, subtree = the whole robot): tau = base wrench, its columns, and the
// 6x6 blocks, all from the "j ⪰ k" formulas (dVdq = 0 for the base dofs).
template <Ext kExt, bool kRows>
void base_dofs(DerivativeData& d) {
  for (int m = 0; m < 6; ++m) dof_columns<kExt>(d, 0, m);
  if constexpr (kRows) {
    for (int m = 0; m < 6; ++m) {
      const Force ag = detail::force_row(d.Ag, m);
      const Vec3 beta_w = detail::apply_Bt(d.oh[0], d.doIo[0], detail::motion_row(d.J, m));
      Force gamma;
      if constexpr (kExt == Ext::kWorldFixed) gamma = detail::motion_row(d.J, m).cross(d.ofext[0]);
      for (int c = 0; c < 6; ++c) {
        const Motion Sc = detail::motion_row(d.J, c);
        double q_entry = detail::motion_row(d.dAdq, c).dot(ag);
        if constexpr (kExt == Ext::kWorldFixed) q_entry -= Sc.dot(gamma);
        d.dtau_dq(m, c) = q_entry;
        d.dtau_dv(m, c) = detail::motion_row(d.dAdv, c).dot(ag) + beta_w.dot(Sc.w);
        if (c <= m) d.dtau_da(m, c) = d.dtau_da(c, m) = Sc.dot(ag);
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
