// The narrowest stance a robot's legs allow by their collision shapes (issue 14): the whole-body walk's
// footsteps are clamped to it (StepLimits::min_leg_spacing, pipeline/clip_footstep_plan.cpp).
//
// Why: a clip's steps are narrow in its turns (walk.bvh, scaled to JVRC-1: a right sole 0.147 m beside the
// left one at t = 16.7 s, against the nominal stance's 0.192 m). The plan's sole-gap bound (min_width) keeps
// the sole rectangles apart, not the legs: JVRC-1's shanks are capsules of radius 0.0746 m, so two parallel
// shanks 0.147 m apart overlap, and the walking pattern put the knees 2.7 mm into each other. The smoothing
// of the legs then has to move the feet apart against its torque objective, and its result stayed within
// 1-2 mm of the safety distance wherever the steps were narrow.
//
// How: the nominal pose (the description's, the plan's initial stance) with the soles moved symmetrically
// towards each other along the line joining them, the waist kept, both legs re-solved (stability::
// refit_legs); the distance of the legs is the smallest over the checked pairs with one shape moved by a
// right-leg joint and the other by a left-leg joint (the feet, shanks, thighs). The spacing is the smallest
// distance of the sole frames at which that distance is still safety_distance + clearance (bisection to
// 0.1 mm; the distance grows with the spacing over the range searched). Measured (safety 0.01 m): JVRC-1
// 0.168 m (its thighs, L_HIP_Y_S / R_HIP_Y_S, closest), above its soles' bound (0.114 m parallel); HRP-2
// 0.132 m, below its soles' bound (0.142 m parallel, more turned), so its plans do not change
// (tests/pipeline/whole_body_leg_spacing.cpp). Legs that far apart with the soles side by side get 0;
// a nominal stance closer than that keeps the nominal spacing.
#pragma once

#include "mimic/geometry/collision_model.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/stability/leg_refit.hpp"

namespace mimic::pipeline {

// m beyond the safety distance that the legs keep in the standing pose at the narrowest spacing: what a
// walk adds to that pose (the swing knee bent further and ahead, the legs leaning with the hip roll) and
// what the smoothing's torque optimum moves the legs by.
inline constexpr double kLegClearance = 0.01;

struct LegSpacing {
  double spacing = 0.0;           // m between the sole frames, 0 when the soles' own bound is narrower
  double nominal_spacing = 0.0;   // m, the nominal stance's
  double nominal_distance = 0.0;  // m, the legs' distance in the nominal stance
  int closest_pair = -1;          // index into the collision model's pairs at `spacing` (-1: no leg pair)
};

// The spacing for `description`'s nominal pose; `legs` of `model`, whose shapes `collision` holds.
LegSpacing leg_spacing(const model::Model& model, const model::RobotDescription& description,
                       const stability::Legs& legs, const geometry::CollisionModel& collision,
                       double safety_distance, double clearance = kLegClearance);

}  // namespace mimic::pipeline
