// A synthetic kinematic reference for the motion tests: from half-sitting, every active upper-body joint
// swings at 2 Hz under a sin^2 window (so the reference starts and ends at rest in half-sitting) with an
// amplitude up to 0.6 rad within the angle limits, i.e. up to ~7.5 rad/s, well beyond HRP-2's velocity
// limits (2.2-6.9 rad/s); P_c is the forward kinematics of q_c, and the waist bobs and yaws a little so
// that the base motion enters the dynamics.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/payload.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/motion/active_joints.hpp"
#include "mimic/motion/motion_input.hpp"

namespace mimic::motion::testing {

inline model::Model load_hrp2() {
  return model::load_urdf(model::default_robot_description().urdf, model::LoadOptions::hrp2());
}

// HRP-2 holding 2 kg in its right gripper, off the frame's origin and with an anisotropic inertia, so that
// every term of a payload enters the torques their derivative tests check.
inline model::Model load_hrp2_with_gripper_payload() {
  return model::with_payload(
      load_hrp2(),
      {"r_gripper", spatial::Inertia(2.0, spatial::Vec3(0.02, 0.0, -0.05),
                                     spatial::Mat3(Eigen::Vector3d(0.01, 0.02, 0.03).asDiagonal()))});
}

// `description` names the active joints, the nominal pose and the imitated frames (default: HRP-2's).
inline MotionInput synthetic_reference(
    const model::Model& model, double duration, double frequency = 2.0, double max_amplitude = 0.6,
    const model::RobotDescription& description = model::default_robot_description()) {
  const Eigen::VectorXd half_sitting = description.nominal_q(model);
  const Eigen::VectorXd rest = half_sitting.tail(model.nj);
  MotionInput input;
  input.rate = 200.0;
  const int n = static_cast<int>(std::lround(duration * input.rate)) + 1;
  model::SampledMotion& motion = input.motion;
  motion.times.resize(static_cast<std::size_t>(n));
  motion.q.resize(model.nq, n);
  motion.phases.assign(static_cast<std::size_t>(n), model::ContactPhase::kDoubleSupport);
  input.end_effectors.resize(9, n);
  input.rest = rest;
  const std::vector<int> active = active_joint_indices(model, description);
  model::Data data(model);
  for (int i = 0; i < n; ++i) {
    const double t = i / input.rate;
    motion.times[static_cast<std::size_t>(i)] = t;
    Eigen::VectorXd joints = rest;
    const double window = std::pow(std::sin(std::numbers::pi * t / duration), 2);
    for (std::size_t p = 0; p < active.size(); ++p) {
      const int j = active[p];
      const double room = std::min(rest[j] - model.lower_limit[j], model.upper_limit[j] - rest[j]);
      const double amplitude = std::min(max_amplitude, 0.8 * room);
      joints[j] = rest[j] + amplitude * window * std::sin(2 * std::numbers::pi * frequency * t + 0.7 * p);
    }
    // P_c in the waist frame: the base at the identity.
    dynamics::forward_kinematics(model, data, model::configuration(model, spatial::SE3::Identity(), joints));
    int f = 0;
    const model::OperationalFrames& frames = description.frames;
    for (const std::string* name : {&frames.gaze, &frames.right_gripper, &frames.left_gripper}) {
      input.end_effectors.block<3, 1>(3 * f++, i) =
          dynamics::update_frame_placement(model, data, model.frame_index(*name)).p;
    }
    const spatial::SE3 waist(
        Eigen::AngleAxisd(0.1 * std::sin(std::numbers::pi * t), Eigen::Vector3d::UnitZ()).toRotationMatrix(),
        Eigen::Vector3d(0.01 * std::sin(std::numbers::pi * t), 0.0,
                        half_sitting[2] + 0.02 * std::sin(2 * std::numbers::pi * t)));
    motion.q.col(i) = model::configuration(model, waist, joints);
  }
  model::differentiate(model, motion);
  return input;
}

}  // namespace mimic::motion::testing
