// The robot a command works with: the model (free-flyer, OpenHRP joint order), its description (groups,
// frames, soles, nominal pose, collision section), the collision model built from the URDF's <collision>
// elements and the description (issue 13), and the feet, loaded once from the job's robot settings.
#pragma once

#include <memory>
#include <optional>

#include "mimic/geometry/collision_model.hpp"
#include "mimic/io/job.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/payload.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/stability/ground_reaction.hpp"

namespace mimic::pipeline {

struct Robot {
  model::RobotDescription description;
  model::Model model;
  stability::Feet feet;
  // Shared with the problems' geometry terms and the check; the payload adds no shape (its bodies and
  // velocity columns are those of the bare model).
  std::shared_ptr<const geometry::CollisionModel> collision;
};

// Empty paths take the shipped models/hrp2.urdf and config/robots/hrp2.yaml.
Robot load_robot(const io::RobotSettings& settings);

// The same robot carrying the job's payload, when there is one (a rigid load on a hand: part of the
// torques, the centre of mass and the ZMP); logs it at info level.
Robot load_robot(const io::RobotSettings& settings, const std::optional<model::Payload>& payload);

}  // namespace mimic::pipeline
