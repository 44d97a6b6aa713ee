// The robot configuration of the code written before the robot description: the nominal (half-sitting)
// pose, the sole rectangles and the names of the operational frames, filled from a RobotDescription
// (robot_description.hpp; config/robots/hrp2.yaml). Kept until its callers take a model::Robot (plan
// WP15).
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"

namespace mimic::model {

struct RobotConfig {
  std::string source_path;  // the YAML file
  std::string urdf;         // model file, resolved against the YAML file's directory

  // Operational frame names.
  std::string right_sole_frame, left_sole_frame;
  std::string right_gripper_frame, left_gripper_frame;
  std::string gaze_frame;

  SoleRectangle right_sole, left_sole;

  // The nominal pose: BODY position (zero orientation) and the joint values keyed by joint name.
  spatial::Vec3 half_sitting_waist = spatial::Vec3::Zero();
  std::vector<std::string> half_sitting_joint_names;
  Eigen::VectorXd half_sitting_joints;

  // The nominal q of `model` (size model.nq): the joint values are matched by name, so the model's joint
  // order does not matter. Throws ModelError when a joint of the config is not in the model.
  Eigen::VectorXd half_sitting(const Model& model) const;

  static RobotConfig from(const RobotDescription& description);
};

// load_robot_description(path), as a RobotConfig.
RobotConfig load_robot_config(const std::string& path);

// default_robot_description_path() (config/robots/hrp2.yaml) and <source dir>/models/hrp2.urdf
// (MIMIC_SOURCE_DIR).
std::string default_robot_config_path();
std::string default_hrp2_urdf_path();

}  // namespace mimic::model
