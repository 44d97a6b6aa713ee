// The numerical leg IK for any six-joint leg (JVRC-1's and G1's pitch-roll-yaw hips, offset hip axes, any
// ankle order): a damped Newton (Levenberg-Marquardt) solve on the 6-D pose error.
//
//   e(q) = log6(sole(q)^-1 * target)            (body twist, [v; w], m and rad alike)
//   (J^T J + lambda I) dq = J^T e,   q <- clamp(q + dq, lower, upper)
// with J the analytic body Jacobian of the sole frame (LegChain::sole_pose_and_jacobian; it is the
// derivative of e at e = 0, so the steps turn into Gauss-Newton steps and converge quadratically near the
// solution). lambda shrinks tenfold after a step that lowers |e|^2 and grows tenfold after one that does
// not (the step is then retried from the same q). The joint limits are kept by projection with an active
// set: a joint at a limit that the step would push out is held there and the step solved again without it.
//
// Starts, in turn, until one converges (deterministic, no random restarts):
//  1. the seed (the previous sample: a warm start takes a few steps); the straight knee is a singular point
//     (no joint moves the sole along the leg), so a knee (fourth joint) within 0.02 rad of zero is bent
//     0.3 rad toward its larger range first;
//  2. where 1 stopped, without the limits: a solution there within the limits is taken; one outside them
//     (typically the other knee branch, the bounded solve having stalled with the knee pinned straight)
//     gives, knee mirrored, the start of a bounded solve;
//  3. the seed with the knee bent 1.2 rad, and a crouch (knee bent 1.2 rad, hip and ankle pitch -0.6 each:
//     the joints parallel to the knee);
//  4. continuation from the crouch: the target approached in eight steps along the geodesic.
// Measured on JVRC-1, G1 and synthetic legs (tests/stability/leg_ik_damped_newton.cpp): every warm start and
// every cold start within 1 rad of the zero pose is solved.
//
// Failures: reachable only outside the limits (2 converged outside them and nothing within did):
// kJointLimit, with that solution and its first joint outside its range; otherwise kOutOfReach, with the
// bounded solve's nearest pose and its residual.
#pragma once

#include "mimic/spatial/se3.hpp"
#include "mimic/stability/leg_chain.hpp"
#include "mimic/stability/leg_ik_result.hpp"

namespace mimic::stability {

LegIkResult solve_leg_damped_newton(const LegChain& chain, const spatial::SE3& root, const spatial::SE3& sole,
                                    const LegAngles& seed);

}  // namespace mimic::stability
