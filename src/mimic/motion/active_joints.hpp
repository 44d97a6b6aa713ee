// Which joints the motion problem moves, and the limits it enforces on them.
//
// Imitation of the upper body (seed 000 section VI): the 16 joints CHEST_JOINT0-1, HEAD_JOINT0-1,
// RARM_JOINT0-5, LARM_JOINT0-5 are optimised; the legs are given (the base motion and the leg joints
// come from the reference) and the grippers (RARM_JOINT6, LARM_JOINT6) are held, since the hands'
// opening does not move the gripper frames and has no mocap counterpart.
#pragma once

#include <Eigen/Core>
#include <array>
#include <string_view>
#include <vector>

#include "mimic/model/limits.hpp"
#include "mimic/model/model.hpp"

namespace mimic::motion {

inline constexpr int kActiveJointCount = 16;
inline constexpr std::array<std::string_view, kActiveJointCount> kActiveJointNames = {
    "CHEST_JOINT0", "CHEST_JOINT1", "HEAD_JOINT0", "HEAD_JOINT1", "RARM_JOINT0", "RARM_JOINT1",
    "RARM_JOINT2",  "RARM_JOINT3",  "RARM_JOINT4", "RARM_JOINT5", "LARM_JOINT0", "LARM_JOINT1",
    "LARM_JOINT2",  "LARM_JOINT3",  "LARM_JOINT4", "LARM_JOINT5"};

// Model joint indices of the active joints, ascending (OpenHRP order makes kActiveJointNames ascending).
// Throws ModelError when the model lacks one of them.
std::vector<int> active_joint_indices(const model::Model& model);

// Moved to model/limits.hpp (issue 12, WP1); kept under the old names until WP15.
using model::scaled_limits;
using model::ScaledLimits;

}  // namespace mimic::motion
