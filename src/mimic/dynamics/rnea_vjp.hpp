// Reverse-mode product of the inverse dynamics (the adjoint of RNEA): for a weight vector w (size nv),
//   w^T dtau/dq,  w^T dtau/dv,  w^T dtau/da (= M(q) w)
// in O(n), without forming the nv x nv Jacobians: what a solver needs for the gradient of a scalar
// function of the torques, e.g. sum_i w_i tau_i, or tau^T tau with w = 2 tau. Same conventions as
// rnea_derivatives.hpp (tangent-space q, base rows/columns in the base frame, ExternalForceDependence).
#pragma once

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

}  // namespace mimic::dynamics
