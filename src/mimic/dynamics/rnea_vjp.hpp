// Reverse-mode product of the inverse dynamics (the adjoint of RNEA): for a weight vector w (size nv),
//   w^T dtau/dq,  w^T dtau/dv,  w^T dtau/da (= M(q) w)
// in O(n), without forming the nv x nv Jacobians: what a solver needs for the gradient of a scalar
// function of the torques, e.g. sum_i w_i tau_i, or tau^T tau with w = 2 tau. Same conventions as
// rnea_derivatives.hpp (tangent-space q, base rows/columns in the base frame, ExternalForceDependence).
#pragma once

#include <span>

#include "mimic/dynamics/derivative_data.hpp"
#include "mimic/dynamics/rnea.hpp"
#include "mimic/dynamics/rnea_derivatives.hpp"

namespace mimic::dynamics {

// Fills data.tau (== rnea(q, v, a)), data.vjp_dq, data.vjp_dv, data.vjp_da. No allocation.
void compute_rnea_vjp(const Model& model, DerivativeData& data, const ConfigRef& q, const ConfigRef& v,
                      const ConfigRef& a, const ConfigRef& w);
void compute_rnea_vjp(const Model& model, DerivativeData& data, const ConfigRef& q, const ConfigRef& v,
                      const ConfigRef& a, const ConfigRef& w, const ExternalForces& fext,
                      ExternalForceDependence dependence);

namespace detail {

// compute_rnea_vjp without external wrenches, in its two passes, for callers that change the q or v of one
// joint at a time (rnea_second_order.cpp). The forward pass writes each body's kinematics and its own terms
// (data.of, Pi, Xi); the backward pass sums those over the subtrees in place and fills tau and vjp_*.
// A forward pass over `bodies` only (ascending, each after its parent; the root excluded) recomputes those
// bodies from their parents and leaves the others as the last pass over them left them: after a change of
// joint j's q or v, the kinematics and own terms of j's body's subtree are all that change, bit for bit
// (the other bodies' kinematics are the unchanged pass's; the restricted backward pass below says which
// sums the caller must put back first).
void rnea_vjp_forward(const Model& model, DerivativeData& data, const ConfigRef& q, const ConfigRef& v,
                      const ConfigRef& a, const ConfigRef& w);
void rnea_vjp_forward(const Model& model, DerivativeData& data, const ConfigRef& q, const ConfigRef& v,
                      const ConfigRef& a, const ConfigRef& w, std::span<const int> bodies);
void rnea_vjp_backward(const Model& model, DerivativeData& data, const ConfigRef& w);
// The backward pass over some bodies only, in the order given (descending body index, as the full pass):
// a step with `entries` is the full pass's step (its dof's tau and vjp entries, then its subtree sums added
// to its parent's); one without only adds the sums its body holds to its parent's. The root's entries
// follow. After a change confined to a subtree, the full pass's values come out bit for bit when the steps
// with entries are the subtree and its ancestors (the root excluded), those without are the other children
// of the ancestors and of the root, and those other children hold their subtree sums of the unchanged pass,
// the ancestors and the root their own terms; every other body's entries keep what they held.
struct BackwardStep {
  int body = 0;
  bool entries = true;
};
void rnea_vjp_backward(const Model& model, DerivativeData& data, const ConfigRef& w,
                       std::span<const BackwardStep> steps);

}  // namespace detail

}  // namespace mimic::dynamics
