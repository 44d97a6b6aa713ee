// Derivatives of the multibody ZMP (com.hpp: zmp(), the ZMP of the contact wrench on the horizontal plane
// z = height) with respect to q (tangent space, rnea_derivatives.hpp convention), v and a.
#pragma once

#include <optional>

#include "mimic/dynamics/derivative_data.hpp"
#include "mimic/spatial/types.hpp"

namespace mimic::dynamics {

// The ZMP (x, y, height) and the derivatives of its x and y (rows 0 and 1 of the 2 x nv outputs). With the
// contact wrench W = [f; tau] (world, about the origin) and its derivatives (contact_wrench_derivatives),
//   x = (h f_x - tau_y) / f_z,  dx = (h df_x - dtau_y - x df_z) / f_z,
//   y = (h f_y + tau_x) / f_z,  dy = (h df_y + dtau_x - y df_z) / f_z.
// Empty, and the outputs left untouched, when f_z <= min_normal_force (as zmp_from_wrench). No allocation.
std::optional<spatial::Vec3> zmp_derivatives(const Model& model, DerivativeData& data, const ConfigRef& q,
                                             const ConfigRef& v, const ConfigRef& a, double height,
                                             Eigen::Ref<Matrix2x> dzmp_dq, Eigen::Ref<Matrix2x> dzmp_dv,
                                             Eigen::Ref<Matrix2x> dzmp_da, double min_normal_force = 1e-6);

}  // namespace mimic::dynamics
