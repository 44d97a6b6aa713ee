// Analytic derivatives of the inverse dynamics tau = rnea(q, v, a [, fext]) (rnea.hpp): dtau/dq, dtau/dv,
// dtau/da (nv x nv), for the whole tree, the free-flyer rows and columns included. Exact (no finite
// differences), O(n d) for a tree of depth d, allocation-free; the backward accumulation of Carpentier &
// Mansard, "Analytical Derivatives of Rigid Body Dynamics Algorithms" (RSS 2018), with the composite
// velocity-derivative matrix reduced to 15 numbers (see rnea_derivatives.cpp).
//
// Conventions:
//  * Configuration derivatives are taken in the tangent space of q: column k of dtau/dq is
//    d/de tau(integrate(q, e * e_k)) at e = 0 (model/configuration.hpp). For the free-flyer the first
//    six columns are the base displacement delta = [dp; dtheta] in the BASE frame, i.e. to first order
//    q ⊕ delta = (p + R dp, R exp3(dtheta)) — the same space as the base velocity v.head(6). Joint
//    columns are the plain joint values.
//  * Rows are those of tau: the base wrench [force; moment about the base origin] in the base frame (6)
//    for the free-flyer, then the joint torques.
//  * External wrenches fext[b] (rnea.hpp: one per body, acting on it, in its body frame at the current q)
//    are independent of v and a; their dependence on q is chosen by ExternalForceDependence.
//  * q's quaternion must be normalised (as for rnea()).
#pragma once

#include "mimic/dynamics/derivative_data.hpp"
#include "mimic/dynamics/rnea.hpp"

namespace mimic::dynamics {

// What stays constant in an external wrench when the configuration moves.
enum class ExternalForceDependence {
  // Constant in the body frame: the wrench follows the body (a thrust, a load fixed to the body).
  kBodyFixed,
  // Constant in world coordinates: the same world force and world moment about the world origin — a force
  // of fixed world direction applied at a fixed WORLD point, e.g. a ground reaction at a contact point.
  kWorldFixed,
};

// Fills data.tau (== rnea(q, v, a)), data.dtau_dq, data.dtau_dv and data.dtau_da (== M(q)). Entries of
// the matrices outside the support pattern (dofs i, j of which neither supports the other) are
// structurally zero: set at construction of the DerivativeData and never written. Also leaves the
// forward quantities of DerivativeData (oMi, J, ov, dVdq, ...) valid for frame_derivatives.hpp.
void compute_rnea_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q,
                              const ConfigRef& v, const ConfigRef& a);
void compute_rnea_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q,
                              const ConfigRef& v, const ConfigRef& a, const ExternalForces& fext,
                              ExternalForceDependence dependence);

}  // namespace mimic::dynamics
