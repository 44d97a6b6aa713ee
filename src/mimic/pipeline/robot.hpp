// The robot a command works with: the model (free-flyer, OpenHRP joint order), its configuration file
// (half-sitting, soles, frames) and the feet, loaded once from the job's robot settings.
#pragma once

#include "mimic/io/job.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot_config.hpp"
#include "mimic/stability/ground_reaction.hpp"

namespace mimic::pipeline {

struct Robot {
  model::RobotConfig config;
  model::Model model;
  stability::Feet feet;
};

// Empty paths take the shipped models/hrp2.urdf and config/hrp2.yaml.
Robot load_robot(const io::RobotSettings& settings);

}  // namespace mimic::pipeline
