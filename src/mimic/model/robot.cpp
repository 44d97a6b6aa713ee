#include "mimic/model/robot.hpp"

namespace mimic::model {

Robot load_robot(const std::string& description_path, const std::optional<Payload>& payload,
                 const std::string& urdf) {
  Robot robot;
  robot.description = load_robot_description(description_path, urdf);
  robot.model = load_urdf(robot.description.urdf, LoadOptions::from(robot.description));
  if (payload) robot.model = with_payload(robot.model, *payload);
  return robot;
}

}  // namespace mimic::model
