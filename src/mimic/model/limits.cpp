#include "mimic/model/limits.hpp"

namespace mimic::model {

ScaledLimits scaled_limits(const Model& model, const LimitFactors& factors) {
  ScaledLimits limits;
  const Eigen::VectorXd middle = 0.5 * (model.lower_limit + model.upper_limit);
  const Eigen::VectorXd half_range = 0.5 * (model.upper_limit - model.lower_limit);
  limits.lower = middle - factors.angle_factor * half_range;
  limits.upper = middle + factors.angle_factor * half_range;
  limits.velocity = factors.velocity_factor * model.velocity_limit;
  limits.torque = factors.torque_factor * model.effort_limit;
  return limits;
}

}  // namespace mimic::model
