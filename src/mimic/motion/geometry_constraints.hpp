// What the optimisation problems keep of the robot's geometry (issue 13), shared by the retarget problem
// and the smoothing problem: every screened pair of collision shapes at least safety_distance apart, and,
// when smoothing a walk, every sole corner on or above the floor and the swing sole within max_swing_tilt
// of its planned orientation. The rows are terms (terms/self_collision.hpp, terms/sole_clearance.hpp) on
// the samples that carry torque-limit rows, which the refinement driver (refine.hpp) extends with every
// sample a check of the solution finds in violation.
#pragma once

#include <memory>

#include "mimic/geometry/collision_model.hpp"

namespace mimic::motion {

struct GeometryConstraintOptions {
  // The robot's collision model; null (or a model without pairs and corners) adds no geometry row.
  std::shared_ptr<const geometry::CollisionModel> collision;
  // m: two shapes closer than this count as colliding, in the problems and in `mimic check` alike (job key
  // geometry.safety_distance).
  double safety_distance = 0.01;
  // rad: how far the swing sole of a smoothed walk may tilt from its planned orientation (job key
  // geometry.max_swing_tilt; a larger bound allows toe-off). 2 degrees: the planned walk's feet are flat.
  double max_swing_tilt = 0.035;
};

}  // namespace mimic::motion
