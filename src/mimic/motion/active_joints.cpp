#include "mimic/motion/active_joints.hpp"

#include <string>

namespace mimic::motion {

std::vector<int> active_joint_indices(const model::Model& model, const model::RobotDescription& description) {
  std::vector<int> joints;
  for (const std::string& name : description.command_joints("retarget"))
    joints.push_back(model.joint_index(name));
  return joints;
}

}  // namespace mimic::motion
