// Derivatives of the centroidal quantities of com.hpp: centre of mass, its velocity and acceleration, and
// the contact wrench dh - m g, with respect to q (tangent space, rnea_derivatives.hpp convention), v and
// a. World axes throughout; the wrench is about the world origin, as contact_wrench(). Output matrices
// must be sized (3 or 6) x nv and are overwritten. No allocation. No external wrench enters: these are
// the quantities of the free motion, as in com.hpp.
#pragma once

#include "mimic/dynamics/derivative_data.hpp"
#include "mimic/spatial/force.hpp"
#include "mimic/spatial/types.hpp"

namespace mimic::dynamics {

// com and dcom/dq (= the centre-of-mass Jacobian Jcom, com_jacobian()).
spatial::Vec3 com_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q,
                              Eigen::Ref<Matrix3x> dcom_dq);

// vcom and dvcom/dq, dvcom/dv (= Jcom).
spatial::Vec3 com_velocity_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q,
                                       const ConfigRef& v, Eigen::Ref<Matrix3x> dvcom_dq,
                                       Eigen::Ref<Matrix3x> dvcom_dv);

// acom and dacom/dq, dacom/dv, dacom/da (= Jcom). m acom = m g + the linear part of the contact wrench.
spatial::Vec3 com_acceleration_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q,
                                           const ConfigRef& v, const ConfigRef& a,
                                           Eigen::Ref<Matrix3x> dacom_dq, Eigen::Ref<Matrix3x> dacom_dv,
                                           Eigen::Ref<Matrix3x> dacom_da);

// W = dh - m g (contact_wrench(): what the ground must apply, world axes, about the world origin) and
// dW/dq, dW/dv, dW/da. W is the RNEA force transmitted to the root by the whole tree, so its derivatives
// are the per-dof subtree-force derivatives of rnea_derivatives.cpp: row k of data.dFdq, dFdv, Ag.
spatial::Force contact_wrench_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q,
                                          const ConfigRef& v, const ConfigRef& a, Eigen::Ref<Matrix6x> dW_dq,
                                          Eigen::Ref<Matrix6x> dW_dv, Eigen::Ref<Matrix6x> dW_da);

}  // namespace mimic::dynamics
