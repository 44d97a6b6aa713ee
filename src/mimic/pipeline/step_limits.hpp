// The robot's reach and pace for footstep plans made from a clip (issue 14): how far one step may put the
// moving foot from the support foot, how much it may turn, and how fast the robot may step. The values
// come from the description's optional `walking:` section (model::WalkingDescription, docs/robot-
// description.md); an absent value is HRP-2's (below) scaled to the robot's size by dynamic similarity
// (Alexander, "The gaits of bipedal and quadrupedal animals", 1984: animals of leg length l walk alike
// at equal Froude numbers v^2 / (g l), so lengths scale with l and durations with sqrt(l)), l being the
// leg's length from the hip to the sole in the nominal pose.
#pragma once

#include <array>

#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/walking/footsteps.hpp"

namespace mimic::pipeline {

struct StepLimits {
  // Where the moving foot may land, in the support foot's sole frame (x forward, y towards the moving
  // foot's side): its x in [-max_backward, max_forward]; its lateral distance at most the nominal stance's
  // (the initial feet's) plus max_lateral (the inner edges of the soles then lie max_lateral further apart
  // than in the nominal stance) times 1 - |x| / max_forward (or max_backward): a leg reaches a long step or
  // a wide one, not both at once; and at least what keeps every corner of the moving sole min_width beyond
  // the support sole's inner edge (no sole on the other, and a gap that the swing foot's tracking and the
  // feet's collision shapes, wider than the sole rectangles on some robots, need). m.
  double max_forward = 0.0, max_backward = 0.0, max_lateral = 0.0, min_width = 0.0;
  // m between the two sole frames, across (in the support foot's sole frame), that the legs' collision
  // shapes need: 0 unless the whole-body walk sets it (pipeline/whole_body_leg_spacing.hpp), not a key.
  double min_leg_spacing = 0.0;
  // The moving foot's yaw relative to the support foot's, beyond their nominal relative yaw. rad.
  double max_turn = 0.0;
  // The shortest swing (single support) and weight transfer (double support) the robot can do. s.
  double min_single_support = 0.0, min_double_support = 0.0;
  // The longest swing: a clip slowed down to the robot's pace (time_stretch) would otherwise hold one
  // foot up for seconds (walk.bvh: 3.2 s on G1, 1.9 s on JVRC-1), long enough for the CoM, and the
  // smoothing's ZMP stabilizer after it, to settle fully over the support sole, a lean of the support
  // leg that JVRC-1's hip roll range (0.349 rad) does not reach. A longer cycle waits in double support
  // instead (the lift-off is delayed). HRP-2: 2 x min_single_support, 1.4 s (its longest swing on
  // walk.bvh is 1.19 s). >= min_single_support. s.
  double max_single_support = 0.0;
  double step_height = 0.0;  // m, the swing foot's clearance
  // m the waist goes down over the first step and back up over the last (FootstepPlan's
  // waist_height_change): a robot whose nominal stance has nearly straight knees (G1) reaches a step only
  // with bent knees. Not scaled: 0 unless the description gives it.
  double waist_lowering = 0.0;
  // The shortest final hold: the preview-controlled CoM settles with a double pole at Tc = sqrt(zc / g)
  // (zc the CoM height in the nominal pose); after 5 Tc (1.45 s on HRP-2, whose shipped walks end with
  // 1.5 s) (1 + 5) exp(-5) = 4 % of the last transfer's CoM offset is left. Derived, not a key. s.
  double settle_time = 0.0;
  double leg_length = 0.0;  // m, hip to sole in the nominal pose (what the defaults were scaled by)
  // m, the leg's segments: the distances between consecutive leg joints from the hip to the ankle (the
  // last leg joint), what retarget::ClipContacts::leg_length measures on the human (hip to knee to
  // ankle); the footsteps of a clip scale by their ratio (footstep_scale()).
  double thigh_shank = 0.0;
  // The sole rectangles (the description's soles): the lateral bound keeps their corners apart.
  model::SoleRectangle right_sole, left_sole;
};

// HRP-2's values, the reference the defaults scale (config/robots/hrp2.yaml gives the same numbers with
// their sources), and the leg length they belong to (hip to sole in half-sitting, computed from
// models/hrp2.urdf; tests/pipeline/clip_footstep_plan.cpp checks it).
StepLimits hrp2_step_limits();

// The limits of the robot `model` (loaded from `description`): the description's `walking` values, the
// others scaled from hrp2_step_limits() by the leg length (lengths by l / l_HRP2, durations by
// sqrt(l / l_HRP2); the turn and the sole gap are kept: the hip yaw ranges and the collision check's
// safety distance do not grow with the robot).
StepLimits step_limits(const model::RobotDescription& description, const model::Model& model);

// The scale (robot / human) of a clip's footsteps for a robot with these limits: the robot's thigh and
// shank over the human's (`human_leg`, retarget::ClipContacts::leg_length), both hip to knee to ankle. The
// legs, not the arms (the kinematic retarget's scale): a human step is a fraction of the human's leg, and
// HRP-2's arms are nearly a man's (scale 0.94 on the shipped walk) while its legs are 0.72 of his.
double footstep_scale(const StepLimits& limits, double human_leg);

// The robot's soles in the nominal pose on the ground (x, y of each sole frame, its yaw): the initial
// stance of a plan (right, left).
std::array<walking::FootPlacement, 2> nominal_stance(const model::RobotDescription& description,
                                                     const model::Model& model);

}  // namespace mimic::pipeline
