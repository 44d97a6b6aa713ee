// Centre of mass, its Jacobian, the total momentum and the ZMP.
#include "mimic/dynamics/com.hpp"

#include "mimic/dynamics/joint_model.hpp"

namespace mimic::dynamics {

using spatial::Force;
using spatial::Motion;
using spatial::Vec3;

namespace {

// data.mass, data.com and the subtree masses / centres of mass (world), from data.oMi.
void accumulate_com(const Model& model, Data& data) {
  for (int b = 0; b < model.nbodies; ++b) {
    const spatial::Inertia& Y = model.inertias[b];
    data.subtree_mass[b] = Y.mass;
    data.subtree_com[b] = Y.mass * data.oMi[b].act(Y.com);  // mass-weighted until normalised below
  }
  for (int b = model.nbodies - 1; b > 0; --b) {
    data.subtree_mass[model.parents[b]] += data.subtree_mass[b];
    data.subtree_com[model.parents[b]] += data.subtree_com[b];
  }
  for (int b = 0; b < model.nbodies; ++b)
    if (data.subtree_mass[b] > 0.0) data.subtree_com[b] /= data.subtree_mass[b];
  data.mass = data.subtree_mass[0];
  data.com = data.subtree_com[0];
}

// Velocity (world axes) of the centre of mass of body b: R (v + w × c).
Vec3 body_com_velocity(const Model& model, const Data& data, int b) {
  const Motion& v = data.v[b];
  return data.oMi[b].R * (v.v + v.w.cross(model.inertias[b].com));
}

// Acceleration (world axes) of the centre of mass of body b: R (a_v + a_w × c + w × (v + w × c)).
Vec3 body_com_acceleration(const Model& model, const Data& data, int b) {
  const Motion& v = data.v[b];
  const Motion& a = data.a[b];
  const Vec3& c = model.inertias[b].com;
  return data.oMi[b].R * (a.v + a.w.cross(c) + v.w.cross(v.v + v.w.cross(c)));
}

void accumulate_vcom(const Model& model, Data& data) {
  data.vcom.setZero();
  for (int b = 0; b < model.nbodies; ++b)
    data.vcom += model.inertias[b].mass * body_com_velocity(model, data, b);
  data.vcom /= data.mass;
}

}  // namespace

const Vec3& center_of_mass(const Model& model, Data& data, const ConfigRef& q) {
  forward_kinematics(model, data, q);
  accumulate_com(model, data);
  return data.com;
}

const Vec3& center_of_mass(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v) {
  forward_kinematics(model, data, q, v);
  accumulate_com(model, data);
  accumulate_vcom(model, data);
  return data.com;
}

const Vec3& center_of_mass(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v,
                           const ConfigRef& a) {
  forward_kinematics(model, data, q, v, a);
  accumulate_com(model, data);
  accumulate_vcom(model, data);
  data.acom.setZero();
  for (int b = 0; b < model.nbodies; ++b)
    data.acom += model.inertias[b].mass * body_com_acceleration(model, data, b);
  data.acom /= data.mass;
  return data.com;
}

const Eigen::Matrix<double, 3, Eigen::Dynamic>& com_jacobian(const Model& model, Data& data,
                                                             const ConfigRef& q) {
  forward_kinematics(model, data, q);
  accumulate_com(model, data);
  auto& J = data.Jcom;
  J.setZero();
  if (model.has_free_flyer()) {
    // Base linear velocity (base frame) moves every body: R0. Base angular velocity w (base frame) moves
    // the CoM by (R0 w) × (com - p0) = -[com - p0] R0 w.
    const spatial::SE3& oM0 = data.oMi[0];
    J.leftCols<3>() = oM0.R;
    J.middleCols<3>(3) = -spatial::skew(data.com - oM0.p) * oM0.R;
  }
  for (int b = 1; b < model.nbodies; ++b) {
    const double share = data.subtree_mass[b] / data.mass;
    const Vec3 axis = data.oMi[b].R * model.axes[b];
    const int col = model.idx_v(b - 1);
    if (model.joint_types[b] == model::JointType::kPrismatic) {
      J.col(col) = share * axis;
    } else {
      J.col(col) = share * axis.cross(data.subtree_com[b] - data.oMi[b].p);
    }
  }
  return J;
}

const Force& momentum(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v) {
  forward_kinematics(model, data, q, v);
  accumulate_com(model, data);
  data.h.setZero();
  for (int b = 0; b < model.nbodies; ++b) {
    data.h_body[b] = model.inertias[b] * data.v[b];
    data.h += data.oMi[b].act(data.h_body[b]);
  }
  data.vcom = data.h.f / data.mass;
  return data.h;
}

const Force& momentum_rate(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v,
                           const ConfigRef& a) {
  center_of_mass(model, data, q, v, a);
  data.h.setZero();
  data.dh.setZero();
  for (int b = 0; b < model.nbodies; ++b) {
    const spatial::Inertia& Y = model.inertias[b];
    data.h_body[b] = Y * data.v[b];
    data.h += data.oMi[b].act(data.h_body[b]);
    // Newton-Euler of body b in its own frame: d/dt(Y v) seen from the world = Y a + v ×* Y v.
    data.dh += data.oMi[b].act(Y * data.a[b] + data.v[b].cross(data.h_body[b]));
  }
  return data.dh;
}

Force contact_wrench(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v,
                     const ConfigRef& a) {
  momentum_rate(model, data, q, v, a);
  const Vec3 weight = data.mass * model.gravity;
  return data.dh - Force(weight, data.com.cross(weight));
}

std::optional<Vec3> zmp_from_wrench(const Force& w, double height, double min_normal_force) {
  const double fz = w.f.z();
  if (!(fz > min_normal_force)) return std::nullopt;
  // Moment about p = (x, y, h) is tau - p × f; its x and y components vanish at:
  return Vec3((height * w.f.x() - w.tau.y()) / fz, (height * w.f.y() + w.tau.x()) / fz, height);
}

std::optional<Vec3> zmp(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v,
                        const ConfigRef& a, double height) {
  return zmp_from_wrench(contact_wrench(model, data, q, v, a), height);
}

}  // namespace mimic::dynamics
