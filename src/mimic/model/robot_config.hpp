// The robot configuration file (config/hrp2.yaml): half-sitting pose, sole rectangles, names of the
// operational frames. Loading is strict: an unknown or missing key is an InputError naming the file, the
// line and the key.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "mimic/model/model.hpp"

namespace mimic::model {

// Axis-aligned rectangle in the sole frame (x forward, y left), metres.
struct SoleRectangle {
  double x_min = 0.0, x_max = 0.0, y_min = 0.0, y_max = 0.0;
};

struct RobotConfig {
  std::string source_path;  // the YAML file
  std::string urdf;         // model file, resolved against the YAML file's directory

  // Operational frame names.
  std::string right_sole_frame, left_sole_frame;
  std::string right_gripper_frame, left_gripper_frame;
  std::string gaze_frame;

  SoleRectangle right_sole, left_sole;

  // Half-sitting: BODY position (zero orientation) and the joint values keyed by joint name, listed in
  // OpenHRP order for HRP-2.
  spatial::Vec3 half_sitting_waist = spatial::Vec3::Zero();
  std::vector<std::string> half_sitting_joint_names;
  Eigen::VectorXd half_sitting_joints;

  // The half-sitting q of `model` (size model.nq): the joint values are matched by name, so the model's
  // joint order does not matter. Throws ModelError when a joint of the config is not in the model.
  Eigen::VectorXd half_sitting(const Model& model) const;
};

RobotConfig load_robot_config(const std::string& path);

// <source dir>/config/hrp2.yaml and <source dir>/models/hrp2.urdf (MIMIC_SOURCE_DIR).
std::string default_robot_config_path();
std::string default_hrp2_urdf_path();

}  // namespace mimic::model
