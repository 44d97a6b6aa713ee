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

ScaledLimits scaled_limits(const model::Model& model, const io::LimitFactors& factors) {
  ScaledLimits limits;
  const Eigen::VectorXd middle = 0.5 * (model.lower_limit + model.upper_limit);
  const Eigen::VectorXd half_range = 0.5 * (model.upper_limit - model.lower_limit);
  limits.lower = middle - factors.angle_factor * half_range;
  limits.upper = middle + factors.angle_factor * half_range;
  limits.velocity = factors.velocity_factor * model.velocity_limit;
  limits.torque = factors.torque_factor * model.effort_limit;
  return limits;
}

}  // namespace mimic::motion
