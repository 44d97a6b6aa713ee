// The torque objective's start (issue 15): where its solve begins instead of the reference.
//
// The torque objective (motion_problem.hpp) has no term that keeps the arms near the clip, and the
// integral of tau^T tau is dominated by gravity, so its minima hold the arms most of the time in a posture
// of little gravity torque and spend the rest on getting there from the pinned first pose and back to the
// pinned last one. Started from the reference, the solvers crawl towards such a posture through the
// large-residual region (tau of an arm held out), where the Gauss-Newton matrix misses the residuals'
// curvature, and stop in whichever of the many poor local minima lies on the way (README: 3133 steps,
// 260 s CPU on boxing). Started from the shape of the minimum, they only refine it.
//
// The start is that shape:
//   q*: the static posture of the active joints (v = a = 0 for them; the base and the passive joints
//       as the problem gives them) that minimises the sum of tau^T tau of the active joints over a few
//       samples of the clip, within the angle limits and clear of self-collision; a projected
//       Levenberg-Marquardt iteration with the analytic dtau/dq (rnea_derivatives.hpp) from a few starts
//       (the pinned first and last poses, the middle of the limits, the zero posture), the lowest cost
//       that keeps every movable pair at least the safety distance apart (the search stops at the first
//       clear posture of zero cost: none can be lower);
//   ramps: a minimum-jerk move from the pinned first pose to q* and one from q* to the pinned last pose,
//       each long enough that no joint exceeds `velocity_fraction` of its velocity limit (the peak speed
//       of a minimum-jerk move is 15/8 of its mean);
//   between them q* is held.
// A clip too short for both ramps, or one where no search ends clear of self-collision, keeps the reference
// as its start (nullopt).
#pragma once

#include <Eigen/Core>
#include <optional>
#include <vector>

#include "mimic/dynamics/derivative_data.hpp"
#include "mimic/geometry/collision_model.hpp"
#include "mimic/model/limits.hpp"
#include "mimic/model/model.hpp"
#include "mimic/motion/motion_input.hpp"

namespace mimic::motion {

// q*'s least squares: r = tau_active(q_s with the active joints at p and their v = a = 0) / sqrt(S) over S
// samples s of the clip (one every half second, at least 3: enough to follow the base's slow sway), so
// that 1/2 |r|^2 is half the mean tau^T tau whatever the clip's length. The base and the passive joints
// move as in the clip, or the passive joints rest at MotionInput::rest when it is given.
class PostureTorqueCost {
 public:
  // `model` and `input` must outlive the cost.
  PostureTorqueCost(const model::Model& model, std::vector<int> active, const MotionInput& input);

  int residuals() const;
  const std::vector<int>& samples() const { return samples_; }
  // r and, when `jacobian` is not null, dr/dp (residuals x m) from the analytic dtau/dq.
  void evaluate(const Eigen::VectorXd& p, Eigen::VectorXd& r, Eigen::MatrixXd* jacobian);

 private:
  const model::Model& model_;
  std::vector<int> active_;
  const MotionInput& input_;
  std::vector<int> samples_;
  dynamics::DerivativeData data_;
};

struct TorqueObjectiveStart {
  Eigen::MatrixXd joints;     // m x N: the active joints at every input sample
  Eigen::VectorXd posture;    // m: q*
  double posture_cost = 0.0;  // mean tau^T tau of the active joints at q* over the posture's samples, N^2 m^2
  double ramp_in = 0.0, ramp_out = 0.0;  // s
};

// `active`: model joint indices (the problem's variables); `limits`: factored. `collision` may be null
// (no pair test). Pairs are tested with the base at the identity (distances do not depend on it).
std::optional<TorqueObjectiveStart> torque_objective_start(
    const model::Model& model, const std::vector<int>& active, const MotionInput& input,
    const model::ScaledLimits& limits, double velocity_fraction, const geometry::CollisionModel* collision,
    double safety_distance);

}  // namespace mimic::motion
