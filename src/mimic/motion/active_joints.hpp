// Which joints the motion problem moves: the robot description's commands.retarget (HRP-2: torso, neck and
// both arms without their hands, 16 joints; config/robots/hrp2.yaml).
#pragma once

#include <vector>

#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"

namespace mimic::motion {

// Model joint indices of the joints `retarget` optimises, in the description's order. Throws ModelError
// when the model lacks one of them.
std::vector<int> active_joint_indices(const model::Model& model, const model::RobotDescription& description);

}  // namespace mimic::motion
