// Forward kinematics (seed 002 "RNEA / Forward loop", without the forces) and frame quantities.
#include "mimic/dynamics/kinematics.hpp"

#include "mimic/dynamics/joint_model.hpp"

namespace mimic::dynamics {

using spatial::Motion;
using spatial::SE3;

namespace {

// Root body: placement, twist and acceleration from the free-flyer part of q, v, a (or the identity/zero
// for a fixed base).
void root_placement(const Model& model, Data& data, const ConfigRef& q) {
  if (model.has_free_flyer()) {
    detail::base_transform(q, data.oMi[0]);
  } else {
    data.oMi[0] = SE3::Identity();
  }
  data.liMi[0] = data.oMi[0];
}

Motion root_motion(const Model& model, const ConfigRef& x) {
  return model.has_free_flyer() ? Motion(x.head<3>(), x.segment<3>(3)) : Motion::Zero();
}

}  // namespace

void forward_kinematics(const Model& model, Data& data, const ConfigRef& q) {
  root_placement(model, data, q);
  for (int b = 1; b < model.nbodies; ++b) {
    detail::joint_transform(model, b, q[model.idx_q(b - 1)], data.liMi[b]);
    data.oMi[b] = data.oMi[model.parents[b]] * data.liMi[b];
  }
}

void forward_kinematics(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v) {
  root_placement(model, data, q);
  data.v[0] = root_motion(model, v);
  for (int b = 1; b < model.nbodies; ++b) {
    const int j = b - 1;
    const int parent = model.parents[b];
    detail::joint_transform(model, b, q[model.idx_q(j)], data.liMi[b]);
    data.oMi[b] = data.oMi[parent] * data.liMi[b];
    data.v[b] = data.liMi[b].act_inv(data.v[parent]);
    detail::add_joint_motion(model, b, v[model.idx_v(j)], data.v[b]);
  }
}

void forward_kinematics(const Model& model, Data& data, const ConfigRef& q, const ConfigRef& v,
                        const ConfigRef& a) {
  root_placement(model, data, q);
  data.v[0] = root_motion(model, v);
  data.a[0] = root_motion(model, a);
  for (int b = 1; b < model.nbodies; ++b) {
    const int j = b - 1;
    const int parent = model.parents[b];
    const double vj = v[model.idx_v(j)];
    detail::joint_transform(model, b, q[model.idx_q(j)], data.liMi[b]);
    data.oMi[b] = data.oMi[parent] * data.liMi[b];
    data.v[b] = data.liMi[b].act_inv(data.v[parent]);
    detail::add_joint_motion(model, b, vj, data.v[b]);
    // a_i = iX_parent a_parent + S qdd + v_i × S qd (seed 002 forward loop)
    data.a[b] = data.liMi[b].act_inv(data.a[parent]);
    detail::add_joint_motion(model, b, a[model.idx_v(j)], data.a[b]);
    detail::add_joint_bias(model, b, data.v[b], vj, data.a[b]);
  }
}

void update_frame_placements(const Model& model, Data& data) {
  for (size_t f = 0; f < model.frames.size(); ++f) {
    const model::Frame& frame = model.frames[f];
    data.oMf[f] = data.oMi[frame.body] * frame.placement;
  }
}

const SE3& update_frame_placement(const Model& model, Data& data, int frame) {
  const model::Frame& f = model.frames[frame];
  data.oMf[frame] = data.oMi[f.body] * f.placement;
  return data.oMf[frame];
}

namespace {

// Re-expresses a twist/acceleration given in the frame's own coordinates (origin and axes of the frame).
Motion express(const SE3& oMf, const Motion& local, ReferenceFrame rf) {
  switch (rf) {
    case ReferenceFrame::kLocal:
      return local;
    case ReferenceFrame::kLocalWorldAligned:
      return Motion(oMf.R * local.v, oMf.R * local.w);
    case ReferenceFrame::kWorld:
      return oMf.act(local);
  }
  return local;
}

}  // namespace

Motion frame_velocity(const Model& model, const Data& data, int frame, ReferenceFrame rf) {
  const model::Frame& f = model.frames[frame];
  const Motion local = f.placement.act_inv(data.v[f.body]);
  return express(data.oMi[f.body] * f.placement, local, rf);
}

Motion frame_acceleration(const Model& model, const Data& data, int frame, ReferenceFrame rf) {
  const model::Frame& f = model.frames[frame];
  const Motion local = f.placement.act_inv(data.a[f.body]);
  return express(data.oMi[f.body] * f.placement, local, rf);
}

Motion frame_classical_acceleration(const Model& model, const Data& data, int frame) {
  const model::Frame& f = model.frames[frame];
  const Motion v = f.placement.act_inv(data.v[f.body]);
  const Motion a = f.placement.act_inv(data.a[f.body]);
  const spatial::Mat3 R = data.oMi[f.body].R * f.placement.R;
  // d/dt (R v_origin) = R (dv/dt + w × v) with dv/dt the linear part of the spatial acceleration.
  return Motion(R * (a.v + v.w.cross(v.v)), R * a.w);
}

namespace {

// Columns of the Jacobian of a point rigidly attached to body `body` with world placement oMf.
void jacobian(const Model& model, const Data& data, int body, const SE3& oMf, ReferenceFrame rf,
              Eigen::Ref<Eigen::Matrix<double, 6, Eigen::Dynamic>> J) {
  J.setZero();
  auto column = [&](int k, const Motion& s_world) {
    Motion c;
    switch (rf) {
      case ReferenceFrame::kWorld:
        c = s_world;
        break;
      case ReferenceFrame::kLocalWorldAligned:
        // twist at the world origin -> twist at the frame origin, world axes
        c = Motion(s_world.v + s_world.w.cross(oMf.p), s_world.w);
        break;
      case ReferenceFrame::kLocal:
        c = oMf.act_inv(s_world);
        break;
    }
    J.col(k).head<3>() = c.v;
    J.col(k).tail<3>() = c.w;
  };
  for (int b = body; b > 0; b = model.parents[b]) {
    const int j = b - 1;
    column(model.idx_v(j), data.oMi[b].act(detail::joint_motion(model, b, 1.0)));
  }
  if (model.has_free_flyer()) {
    // The base twist v.head(6) is body 0's twist in its own frame: unit twists along its 6 axes.
    for (int k = 0; k < 6; ++k) {
      spatial::Vec6 e = spatial::Vec6::Zero();
      e[k] = 1.0;
      column(k, data.oMi[0].act(Motion::from_vector(e)));
    }
  }
}

}  // namespace

void frame_jacobian(const Model& model, const Data& data, int frame, ReferenceFrame rf,
                    Eigen::Ref<Eigen::Matrix<double, 6, Eigen::Dynamic>> J) {
  const model::Frame& f = model.frames[frame];
  jacobian(model, data, f.body, data.oMi[f.body] * f.placement, rf, J);
}

void body_jacobian(const Model& model, const Data& data, int body, ReferenceFrame rf,
                   Eigen::Ref<Eigen::Matrix<double, 6, Eigen::Dynamic>> J) {
  jacobian(model, data, body, data.oMi[body], rf, J);
}

}  // namespace mimic::dynamics
