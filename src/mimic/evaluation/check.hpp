// `mimic check`: a motion (ours or another tool's) against the robot at the motion's own sample rate:
// joint angle, velocity and torque limits (torques with the ground reaction of seed 001 III-C), the ZMP's
// margin inside the support polygon, the slip of the support feet, and, given the robot's collision model,
// its geometry (issue 13: no pair of shapes closer than the safety distance, no sole corner below the
// floor; geometry_check.hpp).
#pragma once

#include <cmath>
#include <memory>

#include "mimic/core/thread_pool.hpp"
#include "mimic/evaluation/geometry_check.hpp"
#include "mimic/evaluation/report.hpp"
#include "mimic/geometry/collision_model.hpp"
#include "mimic/model/limits.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/stability/ground_reaction.hpp"

namespace mimic::evaluation {

struct CheckOptions {
  model::LimitFactors factors;             // limits scaled by safety factors (angle range about its middle)
  double zmp_margin = 0.0;                 // m the ZMP must stay inside the support polygon
  double slip_position = 1.0e-3;           // m a support foot may drift while in support
  double slip_angle = 0.1 * M_PI / 180.0;  // rad
  // Relative excess over an angle, velocity or torque limit that still counts as within it: the solvers
  // meet constraints to a feasibility tolerance of 1e-6 of the limit (issue 6: "violation <= 1e-6 of the
  // limit"), so a check stricter than that would reject what they guarantee.
  double limit_tolerance = 1.0e-6;
  // The robot's collision shapes; null, or a model without pairs and sole corners (a robot without
  // <collision> elements), certifies the limits only, and the report says so.
  std::shared_ptr<const geometry::CollisionModel> collision;
  GeometryCheckOptions geometry;
};

// The report of `motion` (evaluation/report.hpp): peaks, torque integral, ZMP margin, slip, violations and,
// with a collision model, the geometry. `pool` (optional): the samples' threads; the report does not depend
// on it.
Report check_motion(const model::Model& model, const stability::Feet& feet,
                    const model::SampledMotion& motion, const CheckOptions& options = {},
                    core::ThreadPool* pool = nullptr);

}  // namespace mimic::evaluation
