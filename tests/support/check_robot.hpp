// HRP-2 (the shared support/hrp2_robot.hpp) with its collision model, and motions at rest for
// evaluation::check_motion: the robot of the check tests (tests/evaluation/check_geometry.cpp) and of the
// report texts (tests/pipeline/reports.cpp).
#pragma once

#include <memory>
#include <string>

#include "mimic/evaluation/check.hpp"
#include "mimic/geometry/collision_model.hpp"
#include "mimic/model/robot.hpp"
#include "support/fixture_motion.hpp"
#include "support/hrp2_robot.hpp"

namespace mimic::test {

struct CheckRobot {
  const model::Robot& robot = Hrp2Robot::instance().robot;
  const stability::Feet& feet = Hrp2Robot::instance().feet;
  std::shared_ptr<const geometry::CollisionModel> collision =
      std::make_shared<const geometry::CollisionModel>(
          geometry::build_collision_model(robot.model, robot.description));

  static const CheckRobot& instance() {
    static const CheckRobot robot;
    return robot;
  }
  evaluation::CheckOptions with_geometry() const {
    evaluation::CheckOptions options;
    options.collision = collision;
    return options;
  }
  // The fixture at rest in every sample (v = a = 0): only its configurations matter here.
  model::SampledMotion fixture(const std::string& name) const {
    return read_fixture(robot.model, fixture_path(name));
  }
  // Half-sitting at rest in double support, n samples at 200 Hz.
  model::SampledMotion stance(int n) const {
    model::SampledMotion m;
    for (int k = 0; k < n; ++k) m.times.push_back(0.005 * k);
    m.q = robot.description.nominal_q(robot.model).replicate(1, n);
    m.v = Eigen::MatrixXd::Zero(robot.model.nv, n);
    m.a = Eigen::MatrixXd::Zero(robot.model.nv, n);
    m.phases.assign(static_cast<std::size_t>(n), model::ContactPhase::kDoubleSupport);
    return m;
  }
};

}  // namespace mimic::test
