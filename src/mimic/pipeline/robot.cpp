#include "mimic/pipeline/robot.hpp"

#include <spdlog/spdlog.h>

namespace mimic::pipeline {

Robot load_robot(const io::RobotSettings& settings) {
  Robot robot;
  robot.description = model::load_robot_description(
      settings.config.empty() ? model::default_robot_description_path() : settings.config.string(),
      settings.model.string());
  robot.model = model::load_urdf(robot.description.urdf, model::LoadOptions::from(robot.description));
  robot.feet = stability::Feet::from(robot.model, robot.description);
  robot.collision = std::make_shared<const geometry::CollisionModel>(
      geometry::build_collision_model(robot.model, robot.description));
  return robot;
}

Robot load_robot(const io::RobotSettings& settings, const std::optional<model::Payload>& payload) {
  Robot robot = load_robot(settings);
  if (!payload) return robot;
  robot.model = model::with_payload(robot.model, *payload);
  robot.feet = stability::Feet::from(robot.model, robot.description);
  spdlog::info("payload: {} kg on {}", payload->inertia.mass, payload->attached_to);
  return robot;
}

}  // namespace mimic::pipeline
