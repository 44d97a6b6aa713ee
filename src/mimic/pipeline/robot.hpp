// The robot a command works with: the model (free-flyer, OpenHRP joint order), its configuration file
// (half-sitting, soles, frames) and the feet, loaded once from the job's robot settings.
#pragma once

#include <optional>

#include "mimic/io/job.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/payload.hpp"
#include "mimic/model/robot_config.hpp"
#include "mimic/stability/ground_reaction.hpp"

namespace mimic::pipeline {

struct Robot {
  model::RobotConfig config;
  model::Model model;
  stability::Feet feet;
};

// Empty paths take the shipped models/hrp2.urdf and config/robots/hrp2.yaml.
Robot load_robot(const io::RobotSettings& settings);

// The same robot carrying the job's payload, when there is one (a rigid load on a hand: part of the
// torques, the centre of mass and the ZMP); logs it at info level.
Robot load_robot(const io::RobotSettings& settings, const std::optional<model::Payload>& payload);

}  // namespace mimic::pipeline
