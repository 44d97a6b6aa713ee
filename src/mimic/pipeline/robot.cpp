#include "mimic/pipeline/robot.hpp"

#include <spdlog/spdlog.h>

namespace mimic::pipeline {

Robot load_robot(const io::RobotSettings& settings) {
  Robot robot;
  robot.config = model::load_robot_config(settings.config.empty() ? model::default_robot_config_path()
                                                                  : settings.config.string());
  const std::string urdf = settings.model.empty() ? robot.config.urdf : settings.model.string();
  robot.model = model::load_urdf(urdf, model::LoadOptions::hrp2());
  robot.feet = stability::Feet::from(robot.model, robot.config);
  return robot;
}

Robot load_robot(const io::RobotSettings& settings, const std::optional<model::Payload>& payload) {
  Robot robot = load_robot(settings);
  if (!payload) return robot;
  robot.model = model::with_payload(robot.model, *payload);
  robot.feet = stability::Feet::from(robot.model, robot.config);
  spdlog::info("payload: {} kg on {}", payload->inertia.mass, payload->attached_to);
  return robot;
}

}  // namespace mimic::pipeline
