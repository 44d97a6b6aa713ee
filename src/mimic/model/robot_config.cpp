#include "mimic/model/robot_config.hpp"

namespace mimic::model {

RobotConfig RobotConfig::from(const RobotDescription& description) {
  RobotConfig config;
  config.source_path = description.source_path;
  config.urdf = description.urdf;
  config.right_sole_frame = description.frames.right_sole;
  config.left_sole_frame = description.frames.left_sole;
  config.right_gripper_frame = description.frames.right_gripper;
  config.left_gripper_frame = description.frames.left_gripper;
  config.gaze_frame = description.frames.gaze;
  config.right_sole = description.right_sole;
  config.left_sole = description.left_sole;
  config.half_sitting_waist = description.nominal_pose.waist;
  config.half_sitting_joint_names = description.nominal_pose.joint_names;
  config.half_sitting_joints = description.nominal_pose.joints;
  return config;
}

RobotConfig load_robot_config(const std::string& path) {
  return RobotConfig::from(load_robot_description(path));
}

Eigen::VectorXd RobotConfig::half_sitting(const Model& model) const {
  RobotDescription description;
  description.source_path = source_path;
  description.nominal_pose = {half_sitting_waist, half_sitting_joint_names, half_sitting_joints};
  return description.nominal_q(model);
}

std::string default_robot_config_path() { return default_robot_description_path(); }
std::string default_hrp2_urdf_path() { return std::string(MIMIC_SOURCE_DIR) + "/models/hrp2.urdf"; }

}  // namespace mimic::model
