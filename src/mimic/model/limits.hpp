// The robot's joint limits after the safety factors of a job. One definition for every stage that
// enforces or checks limits (motion problems, smoothing, `mimic check`), so that they agree on what
// "within limits" means.
#pragma once

#include <Eigen/Core>

#include "mimic/model/model.hpp"

namespace mimic::model {

// Safety factors in (0, 1] applied to the model's limits.
struct LimitFactors {
  double angle_factor = 1.0;
  double velocity_factor = 1.0;
  double torque_factor = 1.0;
};

// The limits after the safety factors (size model.nj). Angles shrink about the middle of their range,
// as `mimic check` does (evaluation/check.cpp), so both ends keep the same margin; velocity and
// torque limits are multiplied by their factors.
struct ScaledLimits {
  Eigen::VectorXd lower, upper, velocity, torque;
};
ScaledLimits scaled_limits(const Model& model, const LimitFactors& factors);

}  // namespace mimic::model
