// The robot a stage works with: the model (with its payload, if any, already part of it) and the
// description that names its joints, groups, frames and nominal pose (docs/robot-description.md).
#pragma once

#include <optional>
#include <string>

#include "mimic/model/model.hpp"
#include "mimic/model/payload.hpp"
#include "mimic/model/robot_description.hpp"

namespace mimic::model {

struct Robot {
  Model model;  // free-flyer, joints in description.joint_order
  RobotDescription description;
};

// Loads the description at `description_path`, then its URDF (or `urdf` when not empty) with the free-flyer
// and the description's joint order, and adds `payload` to the model when there is one.
Robot load_robot(const std::string& description_path, const std::optional<Payload>& payload = std::nullopt,
                 const std::string& urdf = {});

}  // namespace mimic::model
