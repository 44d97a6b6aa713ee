// What a leg IK solve returns, whichever method (leg_ik.hpp) produced it.
#pragma once

#include "mimic/stability/leg_chain.hpp"

namespace mimic::stability {

enum class LegIkStatus {
  kSolved,
  kOutOfReach,    // no angles put the sole there (the residual of the nearest pose found is reported)
  kJointLimit,    // the pose is reachable only outside the joint limits (see LegIkResult::limit_joint)
  kNotConverged,  // the Newton polish did not reach the tolerance (near a singularity)
};

const char* to_string(LegIkStatus status);

// "Solved" means position and rotation errors <= this (m and rad; the solvers reach ~1e-15, the
// requirement is 0.1 mm and 0.01 degree).
inline constexpr double kLegIkTolerance = 1e-9;

struct LegIkResult {
  LegIkStatus status = LegIkStatus::kNotConverged;
  LegAngles angles = LegAngles::Zero();  // the solution (kJointLimit: the out-of-limits solution; kOutOfReach
                                         // from the damped Newton solve: the nearest pose within the limits)
  double position_error = 0.0;           // m, |sole position - target| of `angles`
  double rotation_error = 0.0;           // rad, angle of sole rotation^-1 * target rotation
  int limit_joint = -1;                  // for kJointLimit: which of the six (0..5) is outside its limits
  int iterations = 0;                    // Newton / Levenberg-Marquardt steps taken

  bool ok() const { return status == LegIkStatus::kSolved; }
};

}  // namespace mimic::stability
