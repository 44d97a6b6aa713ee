#include "mimic/stability/leg_ik.hpp"

#include <string>

#include "mimic/core/error.hpp"
#include "mimic/stability/leg_ik_damped_newton.hpp"

namespace mimic::stability {

using spatial::SE3;
using spatial::Vec3;

const char* to_string(LegIkStatus status) {
  switch (status) {
    case LegIkStatus::kSolved:
      return "solved";
    case LegIkStatus::kOutOfReach:
      return "out of reach";
    case LegIkStatus::kJointLimit:
      return "outside the joint limits";
    case LegIkStatus::kNotConverged:
      return "not converged";
  }
  return "unknown";
}

const char* to_string(LegIkMethod method) {
  return method == LegIkMethod::kClosedForm ? "closed form" : "damped Newton";
}

LegKinematics::LegKinematics(const model::Model& model, const std::string& sole_frame)
    : chain_(LegChain::of(model, sole_frame)), closed_form_(ClosedFormLeg::of(chain_)) {}

LegIkResult LegKinematics::solve(const SE3& root, const SE3& sole, const LegAngles& seed) const {
  return closed_form_ ? closed_form_->solve(chain_, root, sole, seed)
                      : solve_leg_damped_newton(chain_, root, sole, seed);
}

LegAngles LegKinematics::solve_or_throw(const SE3& root, const SE3& sole, const LegAngles& seed) const {
  const LegIkResult result = solve(root, sole, seed);
  if (result.ok()) return result.angles;
  const Vec3 reach = (root * chain_.placements[0]).act_inv(sole.p);
  std::string what = "leg IK for " + chain_.sole_frame + ": " + to_string(result.status);
  if (result.status == LegIkStatus::kJointLimit)
    what += " (joint " + std::to_string(joints()[static_cast<std::size_t>(result.limit_joint)]) + " at " +
            std::to_string(result.angles(result.limit_joint)) + " rad)";
  if (result.status == LegIkStatus::kOutOfReach && method() == LegIkMethod::kDampedNewton)
    what += " (nearest pose " + std::to_string(result.position_error) + " m, " +
            std::to_string(result.rotation_error) + " rad off)";
  what += "; sole " + std::to_string(reach.norm()) + " m from the hip (straight leg " +
          std::to_string(chain_.length()) + " m)";
  throw InfeasibleError(what);
}

}  // namespace mimic::stability
