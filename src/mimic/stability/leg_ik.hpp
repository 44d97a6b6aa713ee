// Inverse kinematics of one leg: the six joint angles that put the sole at a given pose for a given waist
// (root body) pose, for any six-joint leg.
//
// The method is chosen once, when the IK is built from the model and the description's sole frame:
//  * the closed form (leg_ik_closed_form.hpp) when the leg has HRP-2's shape: hip yaw, roll, pitch, knee,
//    ankle pitch, roll about z, x, y, y, y, x with intersecting hip axes and intersecting ankle axes;
//  * otherwise a damped Newton (Levenberg-Marquardt) solve on the 6-D pose error with the chain's analytic
//    Jacobian, within the joint limits, warm-started from the seed (leg_ik_damped_newton.hpp). JVRC-1's and
//    G1's pitch-roll-yaw hips and G1's offset hip joints take this one.
// Both return the same LegIkResult and the same tolerance (1e-9 m and rad).
#pragma once

#include <array>
#include <optional>
#include <string>

#include "mimic/model/model.hpp"
#include "mimic/spatial/se3.hpp"
#include "mimic/stability/leg_chain.hpp"
#include "mimic/stability/leg_ik_closed_form.hpp"
#include "mimic/stability/leg_ik_result.hpp"

namespace mimic::stability {

enum class LegIkMethod { kClosedForm, kDampedNewton };

const char* to_string(LegIkMethod method);

// The geometry of one leg, extracted once from the Model, and its IK.
class LegKinematics {
 public:
  // The chain from the root body to `sole_frame` must be six revolute joints hanging from the root body;
  // otherwise ModelError.
  LegKinematics(const model::Model& model, const std::string& sole_frame);

  const std::string& sole_frame() const { return chain_.sole_frame; }
  // Model joint indices from the hip to the ankle (for HRP-2's right leg: 0..5).
  const std::array<int, kLegJoints>& joints() const { return chain_.joints; }
  double lower_limit(int i) const { return chain_.lower[static_cast<std::size_t>(i)]; }
  double upper_limit(int i) const { return chain_.upper[static_cast<std::size_t>(i)]; }
  const LegChain& chain() const { return chain_; }
  LegIkMethod method() const { return closed_form_ ? LegIkMethod::kClosedForm : LegIkMethod::kDampedNewton; }

  // Sole pose (world) for a root pose (world) and the six angles: forward kinematics of the chain alone.
  spatial::SE3 sole_pose(const spatial::SE3& root, const LegAngles& angles) const {
    return chain_.sole_pose(root, angles);
  }

  // The angles putting the sole at `sole` (world) with the root at `root` (world), near `seed` (pass the
  // previous sample's angles for continuity; the default, the straight leg, selects the usual knee-forward
  // solution): the closed form's branch within the limits nearest the seed, or the damped Newton solve
  // started from the seed. Never throws for an unreachable pose: the status says why, with the residual.
  LegIkResult solve(const spatial::SE3& root, const spatial::SE3& sole,
                    const LegAngles& seed = LegAngles::Zero()) const;

  // solve(), throwing InfeasibleError with the status, the leg and the reach when it fails.
  LegAngles solve_or_throw(const spatial::SE3& root, const spatial::SE3& sole,
                           const LegAngles& seed = LegAngles::Zero()) const;

 private:
  LegChain chain_;
  std::optional<ClosedFormLeg> closed_form_;
};

}  // namespace mimic::stability
