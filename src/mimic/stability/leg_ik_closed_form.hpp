// The analytic leg IK of HRP-2-shaped legs (Kajita's, extended by the lateral offset along the pitch axes).
//
// The shape: revolute axes z, x, y, y, y, x in their own frames (hip yaw, roll, pitch, knee, ankle pitch,
// roll), no rotation in any joint placement below the hip yaw, the hip roll joint on the yaw axis (the hip
// axes intersect), the hip pitch joint offset along its own axis only (d), the knee and the ankle pitch
// straight below the joint above (thigh A, shank B), the ankle axes intersecting. Then the hip centre seen
// from the ankle depends on the ankle roll, knee and ankle pitch only:
//   r = hip centre - ankle in ankle-roll coordinates;   Rx(q5) r = (x, d, z),
//   q5 from the (y, z) part; the knee q3 from the law of cosines on |(x, z)|; the ankle pitch q4 from the
//   angle of (x, z); then Rz(q0) Rx(q1) Ry(q2 + q3 + q4) = hip orientation relative to the ankle roll.
// A Newton polish on the exact chain follows (no step for HRP-2, where the closed form is exact up to
// rounding).
#pragma once

#include <array>
#include <optional>

#include "mimic/stability/leg_chain.hpp"
#include "mimic/stability/leg_ik_result.hpp"

namespace mimic::stability {

class ClosedFormLeg {
 public:
  // The closed form of `chain`, or nothing when the chain does not have the shape above (to 1e-12 m / rad:
  // the closed form would then be an approximation, and the damped Newton solve is used instead).
  static std::optional<ClosedFormLeg> of(const LegChain& chain);

  // The branch within the limits nearest to `seed` (up to four: knee bent either way, hip above or below
  // the ankle), polished by Newton steps. kOutOfReach when no branch exists.
  LegIkResult solve(const LegChain& chain, const spatial::SE3& root, const spatial::SE3& sole,
                    const LegAngles& seed) const;

 private:
  // The branches for the ankle-roll body at `hip_to_ankle` in the hip-yaw joint frame; how many.
  int branches(const LegChain& chain, const spatial::SE3& hip_to_ankle, std::array<LegAngles, 4>& out) const;

  double lateral_offset_ = 0.0;       // d: hip centre - hip pitch joint along the pitch axis
  double thigh_ = 0.0, shank_ = 0.0;  // A, B
};

}  // namespace mimic::stability
