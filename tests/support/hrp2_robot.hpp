// HRP-2 as model::load_robot gives it (config/robots/hrp2.yaml; its URDF in the description's joint order)
// with its feet: the robot of the stability and evaluation tests, loaded once per test program.
#pragma once

#include "mimic/model/robot.hpp"
#include "mimic/stability/ground_reaction.hpp"

namespace mimic::test {

struct Hrp2Robot {
  model::Robot robot = model::load_robot(model::default_robot_description_path());
  const model::Model& model = robot.model;
  const model::RobotDescription& description = robot.description;
  stability::Feet feet = stability::Feet::from(model, description);

  Hrp2Robot() = default;
  Hrp2Robot(const Hrp2Robot&) = delete;  // model and description refer to robot
  Hrp2Robot& operator=(const Hrp2Robot&) = delete;

  static const Hrp2Robot& instance() {
    static const Hrp2Robot r;
    return r;
  }
};

}  // namespace mimic::test
