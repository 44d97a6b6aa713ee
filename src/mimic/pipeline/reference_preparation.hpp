// What the retarget pipeline does to the kinematic reference before optimising it, so that the given base
// motion and the passive legs are physically meaningful: a smooth waist, and feet that stay on the ground.
#pragma once

#include "mimic/pipeline/robot.hpp"
#include "mimic/retarget/reference_motion.hpp"

namespace mimic::pipeline {

// The waist pose of the reference follows the captured pelvis sample by sample (piecewise linear after
// re-timing): its second differences are spikes, and so would be the base accelerations the torques and
// the ZMP are computed from (at the clip's end, where the resampling holds the last pose, the waist would
// stop within 5 ms and the ground would have to pull the robot). A least-squares quartic B-spline on the
// job's knots, starting from the captured pose and at rest at both ends, keeps the motion (a pelvis bounce
// of a few Hz passes 0.1 s knots) and makes it twice differentiable.
// The orientation is fitted as its rotation vector from the first sample's. v and a are refreshed.
void smooth_waist(const model::Model& model, retarget::ReferenceMotion& reference, double knot_spacing);

// The retargeted waist rises and sinks with the captured pelvis while the legs stay at half-sitting, which
// would lift the feet off the floor and drag them along. Both soles are kept where half-sitting puts them
// (both feet flat, seed 000 imitates the upper body only) by the analytic leg IK at every sample, which
// writes the twelve leg joints of the reference's q (v and a refreshed). Throws InfeasibleError naming the
// time and the leg when the waist goes out of the legs' reach or their joint limits.
void plant_feet(const Robot& robot, retarget::ReferenceMotion& reference);

// The waist heights (waist at `waist_rotation`, both soles where half-sitting puts them) the legs can reach
// within their joint limits, found by bisection on the leg IK to 0.1 mm.
struct WaistHeightRange {
  double lowest = 0.0, highest = 0.0;  // m
};
WaistHeightRange reachable_waist_heights(const Robot& robot, const Eigen::Matrix3d& waist_rotation);

// Keeps the captured pelvis height within the legs' reach: a human crouches deeper and stands straighter
// than HRP-2's legs allow (a straight knee is also a kinematic singularity). Heights are clamped to
// [lowest + 2 cm, highest - 3 cm] (3 cm below the stretched leg leaves the knee bent by about 0.6 rad).
// The range is the one of the first sample's orientation. Returns how many samples were clamped (v and a
// refreshed when there are any).
int clamp_waist_height(const Robot& robot, retarget::ReferenceMotion& reference);

// clamp_waist_height (with a warning naming how much was clamped), smooth_waist, then plant_feet.
void prepare_reference(const Robot& robot, retarget::ReferenceMotion& reference, double knot_spacing);

}  // namespace mimic::pipeline
