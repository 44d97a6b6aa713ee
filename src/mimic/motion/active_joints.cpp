#include "mimic/motion/active_joints.hpp"

#include <string>

namespace mimic::motion {

std::vector<int> active_joint_indices(const model::Model& model) {
  std::vector<int> joints;
  joints.reserve(kActiveJointCount);
  for (const std::string_view name : kActiveJointNames)
    joints.push_back(model.joint_index(std::string(name)));
  return joints;
}

}  // namespace mimic::motion
