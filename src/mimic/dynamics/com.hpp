// Centre of mass, total momentum and the multibody ZMP.
//
// Momentum h = [linear momentum m·vcom; angular momentum about the WORLD origin], world axes: the sum over
// bodies of oMi.act(Y_i v_i). dh/dt = sum of the external wrenches on the robot (about the world origin),
// gravity included: dh = sum(fext) + m g. The ground/contact wrench is therefore dh - m g, and the ZMP
// follows from it (see zmp_from_wrench).
#pragma once

#include <Eigen/Core>
#include <optional>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/model.hpp"
#include "mimic/spatial/force.hpp"

namespace mimic::dynamics {

// Runs forward_kinematics(q) and fills data.mass, data.com (world), data.subtree_mass/com. Returns data.com.
const spatial::Vec3& center_of_mass(const Model& model, Data& data, const ConfigRef& q);
// ... and data.vcom.
const spatial::Vec3& center_of_mass(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v);
// ... and data.acom.
const spatial::Vec3& center_of_mass(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v,
                                    const ConfigRef& a);

// The 3 x nv Jacobian of the centre of mass (vcom = Jcom v); runs forward_kinematics(q). Result in
// data.Jcom (and data.com, data.subtree_*).
const Eigen::Matrix<double, 3, Eigen::Dynamic>& com_jacobian(const Model& model, Data& data,
                                                             const ConfigRef& q);

// Runs forward_kinematics(q, v); data.h (and data.com, data.vcom). Returns data.h.
const spatial::Force& momentum(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v);
// Runs forward_kinematics(q, v, a); data.h and data.dh (and com, vcom, acom). Returns data.dh.
const spatial::Force& momentum_rate(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v,
                                    const ConfigRef& a);

// The wrench the environment (ground) must apply on the robot for the motion, world axes, about the world
// origin: dh - m g. Runs momentum_rate.
spatial::Force contact_wrench(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v,
                              const ConfigRef& a);

// ZMP on the horizontal plane z = height of a contact wrench w (world axes, about the world origin): the
// point p = (x, y, height) about which the moment of w has no horizontal component,
//   x = (height·f_x - tau_y) / f_z,  y = (height·f_y + tau_x) / f_z.
// Empty when f_z <= min_normal_force (no support: flight or pulling).
std::optional<spatial::Vec3> zmp_from_wrench(const spatial::Force& w, double height = 0.0,
                                             double min_normal_force = 1e-6);
// Multibody ZMP of a motion on the plane z = height: zmp_from_wrench(contact_wrench(q, v, a), height).
std::optional<spatial::Vec3> zmp(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v,
                                 const ConfigRef& a, double height = 0.0);

}  // namespace mimic::dynamics
