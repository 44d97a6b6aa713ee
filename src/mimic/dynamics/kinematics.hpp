// Forward kinematics, operational-frame placements, velocities, accelerations and Jacobians.
//
// All functions take q, v, a with the layout of docs/CONTRACTS.md (see model.hpp) and write into Data
// without allocating. Spatial velocities/accelerations are [linear; angular] (seed 002).
#pragma once

#include <Eigen/Core>

#include "mimic/model/model.hpp"
#include "mimic/spatial/motion.hpp"
#include "mimic/spatial/se3.hpp"

namespace mimic::dynamics {

using model::Data;
using model::Model;
using ConfigRef = Eigen::Ref<const Eigen::VectorXd>;

// In which coordinates a frame quantity (twist, acceleration, Jacobian) is expressed.
enum class ReferenceFrame {
  kLocal,              // frame origin and frame axes ("body" twist)
  kLocalWorldAligned,  // frame origin, world axes: linear part = velocity of the frame origin in world
  kWorld,              // world origin and world axes ("spatial" twist)
};

// Body placements: data.liMi, data.oMi.
void forward_kinematics(const Model& model, Data& data, const ConfigRef& q);
// ... and body twists data.v (body frames).
void forward_kinematics(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v);
// ... and body accelerations data.a (body frames, without gravity).
void forward_kinematics(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v,
                        const ConfigRef& a);

// data.oMf for every frame, from data.oMi (call forward_kinematics first).
void update_frame_placements(const Model& model, Data& data);
// data.oMf[frame] only, from data.oMi; returns it.
const spatial::SE3& update_frame_placement(const Model& model, Data& data, int frame);

// Twist of a frame, from data.oMi and data.v (forward_kinematics with q, v first).
spatial::Motion frame_velocity(const Model& model, const Data& data, int frame,
                               ReferenceFrame rf = ReferenceFrame::kLocal);
// Spatial acceleration (time derivative of the kLocal twist, re-expressed) of a frame, from data.oMi and
// data.a (forward_kinematics with q, v, a first). For kLocalWorldAligned and kWorld this is the spatial
// acceleration expressed in those coordinates, not the second derivative of a point: for that, use
// frame_classical_acceleration.
spatial::Motion frame_acceleration(const Model& model, const Data& data, int frame,
                                   ReferenceFrame rf = ReferenceFrame::kLocal);
// Classical (linear) acceleration of the frame origin, d²p/dt², in world axes, and the angular acceleration
// in world axes, as a Motion [d²p/dt²; dω/dt]. Needs forward_kinematics with q, v, a.
spatial::Motion frame_classical_acceleration(const Model& model, const Data& data, int frame);

// The 6 x nv Jacobian of a frame: frame_velocity(frame, rf) = J v. Needs data.oMi (forward_kinematics
// with q). J must be 6 x nv; it is overwritten (columns of joints not supporting the frame are zero).
void frame_jacobian(const Model& model, const Data& data, int frame, ReferenceFrame rf,
                    Eigen::Ref<Eigen::Matrix<double, 6, Eigen::Dynamic>> J);

// The 6 x nv Jacobian of a body frame (frame placed at the body origin).
void body_jacobian(const Model& model, const Data& data, int body, ReferenceFrame rf,
                   Eigen::Ref<Eigen::Matrix<double, 6, Eigen::Dynamic>> J);

}  // namespace mimic::dynamics
