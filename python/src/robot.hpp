// The Python Robot: the robot a command works with (pipeline::Robot: model, description, feet, collision
// model) and the scratch memory of the dynamics functions (dynamics.cpp), which therefore allocate nothing
// but their results. Not thread-safe, like every Python object the GIL guards.
#pragma once

#include <Eigen/Core>
#include <string>

#include "mimic/dynamics/derivative_data.hpp"
#include "mimic/model/data.hpp"
#include "mimic/pipeline/robot.hpp"

namespace mimic::python {

struct PyRobot {
  explicit PyRobot(pipeline::Robot loaded);

  pipeline::Robot robot;  // declared before the scratch memory, which is sized from robot.model
  model::Data data;
  dynamics::DerivativeData derivatives;
  Eigen::VectorXd nominal_q;  // the description's nominal pose (HRP-2: half-sitting), size nq
  Eigen::VectorXd masses;     // per body, kg (fixed-joint children merged in)

  const model::Model& model() const { return robot.model; }
  // Throws InputError "<what>: expected <size> values, found <n>" unless `vector` has `size` entries.
  static void check_size(const Eigen::Ref<const Eigen::VectorXd>& vector, int size, const char* what);
  // check_size(q, nq) and, for a free-flyer, a unit base quaternion (to 1e-6), which every algorithm
  // assumes: mimic.integrate keeps it so.
  void check_configuration(const Eigen::Ref<const Eigen::VectorXd>& q, const char* what = "q") const;
};

}  // namespace mimic::python
