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
// Cost: one world-frame RNEA forward/backward pass, a few inertia and cross products per dof, and per
// (dof, supporting dof) pair 5 entries from 36 multiply-adds; the pair loop runs along the supporting dofs
// (stored dof-major), two per SSE2 register, over the runs of consecutive dofs of each support chain.
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

// With kForcesOnly, oYcrb, oh and doIo already hold the subtree sums (DerivativeData::backward_valid).
template <Ext kExt, bool kForcesOnly>
inline void accumulate_to_parent(DerivativeData& d, int b, int parent) {
  if constexpr (!kForcesOnly) d.oYcrb[parent] += d.oYcrb[b];
  d.of[parent] += d.of[b];
  if constexpr (!kForcesOnly) {
    d.oh[parent] += d.oh[b];
    d.doIo[parent] += d.doIo[b];
  }
  if constexpr (kExt == Ext::kWorldFixed) d.ofext[parent] += d.ofext[b];
}

// The force whose transport enters dFdq: the subtree force, minus the external wrenches when those stay
// fixed in the world.
template <Ext kExt>
inline Force transported_force(const DerivativeData& d, int b) {
  if constexpr (kExt == Ext::kWorldFixed) return d.of[b] + d.ofext[b];
  return d.of[b];
}

// Row k of Ag, dFdq, dFdv and tau_k for the dof k moving body b, whose subtree sums are complete; returns
// beta_k, the angular part of B_i^T S_k, for the pair loop. With Y = (m, mc, I_o), C = dI_o - [h_tau]
// (detail::B_angular_block) and X = [x_v; x_w]: Y X = [m x_v - mc × x_w; mc × x_v + I_o x_w] and
// B X = [-2 h_f × x_w; C x_w]; the three I_o products and the two C products are batched as 3x3 and 3x2
// matrix products.
template <Ext kExt>
inline Vec3 dof_columns(DerivativeData& d, int b, int k) {
  const WorldInertia& Y = d.oYcrb[b];
  const Vec3& hf = d.oh[b].f;
  const spatial::Mat3 C = detail::B_angular_block(d.oh[b], d.doIo[b]);
  const Force F = transported_force<kExt>(d, b);
  const Vec3 sv = d.J.row(k).head<3>(), sw = d.J.row(k).tail<3>();
  const Vec3 av = d.dAdq.row(k).head<3>(), aw = d.dAdq.row(k).tail<3>();
  const Vec3 vv = d.dAdv.row(k).head<3>(), vw = d.dAdv.row(k).tail<3>();
  const Vec3 dw = d.dVdq.row(k).tail<3>();
  spatial::Mat3 W;
  W << sw, aw, vw;
  const spatial::Mat3 IoW = Y.Io * W;
  Eigen::Matrix<double, 3, 2> D;
  D << dw, sw;
  const Eigen::Matrix<double, 3, 2> CD = C * D;
  const Vec3 hf2 = 2.0 * hf;

  d.tau[k] = sv.dot(d.of[b].f) + sw.dot(d.of[b].tau);
  d.Ag.row(k).head<3>() = Y.m * sv - Y.mc.cross(sw);
  d.Ag.row(k).tail<3>() = Y.mc.cross(sv) + IoW.col(0);
  // dFdq without the force transport, kept for force_columns; adding the transport to it afterwards makes
  // the same sums in the same order as the whole expression did.
  d.dFdq_free.row(k).head<3>() = Y.m * av - Y.mc.cross(aw) - hf2.cross(dw);
  d.dFdq_free.row(k).tail<3>() = Y.mc.cross(av) + IoW.col(1) + CD.col(0);
  d.dFdq.row(k).head<3>() = Vec3(d.dFdq_free.row(k).head<3>()) + sw.cross(F.f);
  d.dFdq.row(k).tail<3>() = Vec3(d.dFdq_free.row(k).tail<3>()) + sw.cross(F.tau) + sv.cross(F.f);
  d.dFdv.row(k).head<3>() = Y.m * vv - Y.mc.cross(vw) - hf2.cross(sw);
  d.dFdv.row(k).tail<3>() = Y.mc.cross(vv) + IoW.col(2) + CD.col(1);
  const Vec3 beta = hf2.cross(sv) + C.transpose() * sw;
  d.beta.row(k) = beta.transpose();
  return beta;
}

// dof_columns for a pass whose force-free parts are those of the last backward pass
// (DerivativeData::backward_valid): tau_k and dFdq_k from the subtree force (which the external wrenches
// change), Ag_k and dFdv_k left as they are, beta_k as kept.
template <Ext kExt>
inline Vec3 force_columns(DerivativeData& d, int b, int k) {
  const Force F = transported_force<kExt>(d, b);
  const Vec3 sv = d.J.row(k).head<3>(), sw = d.J.row(k).tail<3>();
  d.tau[k] = sv.dot(d.of[b].f) + sw.dot(d.of[b].tau);
  d.dFdq.row(k).head<3>() = Vec3(d.dFdq_free.row(k).head<3>()) + sw.cross(F.f);
  d.dFdq.row(k).tail<3>() = Vec3(d.dFdq_free.row(k).tail<3>()) + sw.cross(F.tau) + sv.cross(F.f);
  return d.beta.row(k).transpose();
}

// The pair loop runs along the supporting dofs c, two at a time: T is a pair of doubles (GCC/Clang vector
// extension, one SSE2 register) or, for the odd last dof of a run, a plain double. The arithmetic is
// written once for both.
#if defined(__GNUC__)
using Lanes = double __attribute__((vector_size(16)));
constexpr int kLanes = 2;
inline Lanes splat(double x) { return Lanes{x, x}; }
inline Lanes lanes(const Lanes& x, Lanes) { return x; }
inline double lanes(const Lanes& x, double) { return x[0]; }
inline Lanes load(const double* p, Lanes) {
  Lanes x;
  std::memcpy(&x, p, sizeof x);
  return x;
}
inline void store(double* p, Lanes x) { std::memcpy(p, &x, sizeof x); }
inline void store_strided(double* p, std::ptrdiff_t stride, Lanes x) {
  p[0] = x[0];
  p[stride] = x[1];
}
#else
using Lanes = double;
constexpr int kLanes = 1;
inline double splat(double x) { return x; }
#endif
inline double lanes(double x, double) { return x; }
inline double load(const double* p, double) { return *p; }
inline void store(double* p, double x) { *p = x; }
inline void store_strided(double* p, std::ptrdiff_t, double x) { *p = x; }

// Row-side data of dof k — Ag_k, beta_k (angular part), dFdq_k, dFdv_k, gamma_k (world-fixed wrenches) —
// each scalar broadcast to all lanes once per row (the scalar path reads lane 0).
struct RowSide {
  Lanes ag[6], beta[3], fq[6], fv[6], gamma[6];
};

// Base pointers of the dof-major column-side data: component i of dof c is at p[i * nv + c].
struct ColumnSide {
  const double* __restrict S;
  const double* __restrict dVdq;
  const double* __restrict dAdq;
  const double* __restrict dAdv;
  std::ptrdiff_t nv;
};

// The entries of dofs c .. c + lanes(T) - 1 supporting dof k:
//   row k:    (k, c) = Ag_k . dAdq_c + beta_k . dVdq_c [- gamma_k . S_c], Ag_k . dAdv_c + beta_k . S_c, M;
//   column k (kColumn): (c, k) = S_c . dFdq_k, S_c . dFdv_k, S_c . Ag_k (valid for c strictly supporting k;
//   for c = k both formulas agree, the row-k one is stored last).
template <typename T, bool kWorldFixed, bool kColumn>
inline void pair_entries(const ColumnSide& x, const RowSide& r, std::ptrdiff_t k, std::ptrdiff_t c,
                         double* __restrict dq, double* __restrict dv, double* __restrict da) {
  const std::ptrdiff_t n = x.nv;
  const T z{};
  T S[6], ag[6];
  for (int i = 0; i < 6; ++i) {
    S[i] = load(x.S + i * n + c, z);
    ag[i] = lanes(r.ag[i], z);
  }
  const T m = ag[0] * S[0] + ag[1] * S[1] + ag[2] * S[2] + ag[3] * S[3] + ag[4] * S[4] + ag[5] * S[5];
  if constexpr (kColumn) {
    T col_q = lanes(r.fq[0], z) * S[0], col_v = lanes(r.fv[0], z) * S[0];
    for (int i = 1; i < 6; ++i) {
      col_q += lanes(r.fq[i], z) * S[i];
      col_v += lanes(r.fv[i], z) * S[i];
    }
    store(dq + k * n + c, col_q);
    store(dv + k * n + c, col_v);
    store(da + k * n + c, m);
  }
  T row_q = lanes(r.beta[0], z) * load(x.dVdq + 3 * n + c, z) +
            lanes(r.beta[1], z) * load(x.dVdq + 4 * n + c, z) +
            lanes(r.beta[2], z) * load(x.dVdq + 5 * n + c, z);
  T row_v = lanes(r.beta[0], z) * S[3] + lanes(r.beta[1], z) * S[4] + lanes(r.beta[2], z) * S[5];
  for (int i = 0; i < 6; ++i) {
    row_q += ag[i] * load(x.dAdq + i * n + c, z);
    row_v += ag[i] * load(x.dAdv + i * n + c, z);
  }
  if constexpr (kWorldFixed)
    for (int i = 0; i < 6; ++i) row_q -= lanes(r.gamma[i], z) * S[i];
  store_strided(dq + c * n + k, n, row_q);
  store_strided(dv + c * n + k, n, row_v);
  store_strided(da + c * n + k, n, m);
}

// The row-side data of dof k moving body b (beta from dof_columns; gamma: see the file comment).
template <Ext kExt>
RowSide row_side(const DerivativeData& d, int b, int k, const Vec3& beta) {
  RowSide r;
  for (int i = 0; i < 6; ++i) {
    r.ag[i] = splat(d.Ag(k, i));
    r.fq[i] = splat(d.dFdq(k, i));
    r.fv[i] = splat(d.dFdv(k, i));
  }
  for (int i = 0; i < 3; ++i) r.beta[i] = splat(beta[i]);
  if constexpr (kExt == Ext::kWorldFixed) {
    const Force g = detail::motion_row(d.J, k).cross(d.ofext[b]);
    for (int i = 0; i < 3; ++i) {
      r.gamma[i] = splat(g.f[i]);
      r.gamma[3 + i] = splat(g.tau[i]);
    }
  }
  return r;
}

// Entries of row k (and, kColumn, column k) for the dofs c in [first, last), kLanes at a time.
template <bool kWorldFixed, bool kColumn>
inline void run_entries(DerivativeData& d, const RowSide& r, int k, int first, int last) {
  const ColumnSide x{d.J.data(), d.dVdq.data(), d.dAdq.data(), d.dAdv.data(), d.nv};
  double* const dq = d.dtau_dq.data();
  double* const dv = d.dtau_dv.data();
  double* const da = d.dtau_da.data();
  int c = first;
  for (; c + kLanes <= last; c += kLanes) pair_entries<Lanes, kWorldFixed, kColumn>(x, r, k, c, dq, dv, da);
  for (; c < last; ++c) pair_entries<double, kWorldFixed, kColumn>(x, r, k, c, dq, dv, da);
}

// Row k against every dof c supporting it (c ⪯ k), and the mirrored entries (c, k): see the file comment.
// The support is walked run by run (DerivativeData::support_*).
template <Ext kExt>
inline void dof_rows(DerivativeData& d, int b, int k, const Vec3& beta) {
  const RowSide r = row_side<kExt>(d, b, k, beta);
  for (int run = d.support_offset[k]; run < d.support_offset[k + 1]; ++run) {
    const int first = d.support_first[run];
    run_entries<kExt == Ext::kWorldFixed, true>(d, r, k, first, first + d.support_length[run]);
  }
}

// The free-flyer's 6 dofs (body 0, subtree = the whole robot): tau = base wrench, its columns, and the
// 6x6 blocks. All 6 dofs support each other (and S_c moves with every one of them), so every entry of the
// blocks uses the row ("j ⪰ k") formula; M's block is then mirrored to be exactly symmetric.
template <Ext kExt, bool kRows, bool kForcesOnly>
void base_dofs(DerivativeData& d) {
  Vec3 beta[6];
  for (int m = 0; m < 6; ++m)
    beta[m] = kForcesOnly ? force_columns<kExt>(d, 0, m) : dof_columns<kExt>(d, 0, m);
  if constexpr (kRows) {
    for (int m = 0; m < 6; ++m)
      run_entries<kExt == Ext::kWorldFixed, false>(d, row_side<kExt>(d, 0, m, beta[m]), m, 0, 6);
    for (int m = 0; m < 6; ++m)
      for (int c = m + 1; c < 6; ++c) d.dtau_da(m, c) = d.dtau_da(c, m);
  }
}

// Whether d holds the forward pass at the bitwise same (q, v, a) (DerivativeData::forward_valid).
bool same_forward_pass(const DerivativeData& d, const ConfigRef& q, const ConfigRef& v, const ConfigRef& a) {
  const auto same = [](const Eigen::VectorXd& kept, const ConfigRef& x) {
    return kept.size() == x.size() &&
           std::memcmp(kept.data(), x.data(), static_cast<std::size_t>(x.size()) * sizeof(double)) == 0;
  };
  return d.forward_valid && same(d.forward_q, q) && same(d.forward_v, v) && same(d.forward_a, a);
}

// Body b's own values of body_forward, before the backward pass sums them over its subtree.
inline void keep_body_values(DerivativeData& d, int b) {
  d.body_Y[b] = d.oYcrb[b];
  d.body_h[b] = d.oh[b];
  d.body_f[b] = d.of[b];
  d.body_dIo[b] = d.doIo[b];
}

// The backward pass: kForcesOnly when the force-free parts of the last one still hold
// (DerivativeData::backward_valid).
template <Ext kExt, bool kRows, bool kForcesOnly>
void backward_pass(const Model& model, DerivativeData& d) {
  for (int b = model.nbodies - 1; b > 0; --b) {
    const int k = model.idx_v(model::Model::joint_of_body(b));
    const Vec3 beta = kForcesOnly ? force_columns<kExt>(d, b, k) : dof_columns<kExt>(d, b, k);
    if constexpr (kRows) dof_rows<kExt>(d, b, k, beta);
    accumulate_to_parent<kExt, kForcesOnly>(d, b, model.parents[b]);
  }
  if (model.has_free_flyer()) base_dofs<kExt, kRows, kForcesOnly>(d);
}

template <Ext kExt, bool kRows>
void rnea_derivatives_impl(const Model& model, DerivativeData& d, const ConfigRef& q, const ConfigRef& v,
                           const ConfigRef& a, const ExternalForces* fext) {
  const bool ff = model.has_free_flyer();
  const bool forces_only = same_forward_pass(d, q, v, a) && d.backward_valid;
  if (forces_only) {
    // The forward quantities and the subtree sums other than the forces are still those of the last pass.
    for (int b = 0; b < model.nbodies; ++b) {
      d.of[b] = d.body_f[b];
      add_external<kExt>(d, b, fext);
    }
    backward_pass<kExt, kRows, true>(model, d);
    return;
  }
  d.backward_valid = false;
  if (same_forward_pass(d, q, v, a)) {
    // The forward quantities are still those of the last pass; only the bodies' own sums were overwritten.
    for (int b = 0; b < model.nbodies; ++b) {
      d.oYcrb[b] = d.body_Y[b];
      d.oh[b] = d.body_h[b];
      d.of[b] = d.body_f[b];
      d.doIo[b] = d.body_dIo[b];
      add_external<kExt>(d, b, fext);
    }
  } else {
    detail::root_forward(model, d, q, ff ? Motion(v.head<3>(), v.segment<3>(3)) : Motion::Zero(),
                         ff ? Motion(a.head<3>(), a.segment<3>(3)) : Motion::Zero());
    detail::body_forward(model, d, 0);
    keep_body_values(d, 0);
    add_external<kExt>(d, 0, fext);
    for (int b = 1; b < model.nbodies; ++b) {
      const int j = model::Model::joint_of_body(b);
      const int k = model.idx_v(j);
      detail::joint_forward(model, d, b, q[model.idx_q(j)], v[k], a[k]);
      detail::body_forward(model, d, b);
      keep_body_values(d, b);
      add_external<kExt>(d, b, fext);
    }
    d.forward_q = q;
    d.forward_v = v;
    d.forward_a = a;
    d.forward_valid = true;
  }
  backward_pass<kExt, kRows, false>(model, d);
  d.backward_valid = true;
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
// wrench, d(oF_root)/dx_k is exactly row k of dFdq / dFdv / Ag, since the root's subtree is everything.
void centroidal_derivative_pass(const Model& model, DerivativeData& data, const ConfigRef& q,
                                const ConfigRef& v, const ConfigRef& a) {
  check_sizes(model, data, q, v, a);
  rnea_derivatives_impl<Ext::kNone, false>(model, data, q, v, a, nullptr);
}

}  // namespace detail

}  // namespace mimic::dynamics
