// The robot's footstep plan from a clip's footsteps (issue 14, the whole-body retarget mode): where the
// robot puts its feet and when, so that it walks where the human walked, scaled to its size and within its
// reach and pace (step_limits.hpp).
//
// Frames. The clip's initial stance (the midpoint of both feet's first support positions, the mean of
// their headings) maps onto the robot's (the midpoint of initial_right and initial_left, the mean of their
// yaws), distances scaled by `scale`. A foot is not scaled about that midpoint alone: each foot stands
// beside the body by its own offset, and a human's feet stand closer (0.2 m x 0.7 = 0.14 m on HRP-2's
// scale) than the robot's (0.19 m), and toe out by a few degrees each. So a human footstep (foot f at p,
// heading h) is first reduced to the body pose it implies: heading b = h - (f's initial heading - the
// stance heading), centre c = p - R(b) (f's initial offset from the stance midpoint, in stance axes);
// (c, b) is scaled into the robot's stance frame, and the robot's foot f is put back at its own initial
// offset and yaw from there. The first support phases map exactly onto initial_right and initial_left.
// This is `scaled_human` of every step: the scaled human target before any limit, which the placement
// error is measured against.
//
// Steps. Every ClipFootstep with step = true becomes a plan step, in time order (a foot lifted and put
// down in place is not a step: the robot keeps it planted). Its target is the scaled human target
// expressed in the robot's CURRENT support foot's sole frame (the other foot, as the plan has placed it),
// clamped there to the limits (turn, then along, then across: the lateral bound depends on the turn), and
// put back in the world. Without clamps this is the human's step relative to his support foot, scaled;
// after a clamp the next steps aim at the human's path again (within the limits) instead of carrying the
// shortfall to the end of the walk, so the robot's travel stays close to the scaled human travel. A step
// up to two robot reaches away (its length along the support foot over max_forward or max_backward) is one
// clamped step: the robot lags behind the human's path by at most one of its own steps, which the next
// steps take up. Further away (a human's stride is longer than a robot's, relative to the legs, and the
// lag adds up), catch-up steps come first (Step::inserted): the fewest pairs (at most 8: G1's 0.1 m steps
// after a human's 0.8 m stride need 4) that make the 2 pairs + 1 steps each within reach when they share
// the way evenly, from the body pose the support foot implies to the one the target implies (position and
// heading: a turn is shared too), feet alternating; each takes the robot's minimum transfer and swing,
// before the clip step's lift-off. A side lunge, a crossed foot or a turn beyond reach is only clamped.
// Consecutive steps of one foot (a shuffle) are steps like any other: the support foot does not move.
// The first step lowers the waist by limits.waist_lowering, the final transfer and hold raise it back (the
// last step may be a long one, which the lowered waist reaches).
//
// Timing. A step's swing lasts from its foot's lift-off (the end of that foot's previous support phase) to
// its touchdown (the step's interval.start); its transfer from the previous step's touchdown to its
// lift-off. Clip times map to robot times by `robot_time` (seed 000's re-timing, Algorithm 1), then to the
// plan's clock by plan_time(): time_offset + t, slowed down by time_stretch between stretch_start (the
// clip's first step's lift-off) and stretch_end (its last step's touchdown), where the clip walks: a
// stand before or after the walk keeps the clip's pace (on walk.bvh, 1.95 s and 2.4 s of standing would
// otherwise last 5.1 s and 6.3 s). time_stretch (>= 1) is the robot's average pace: the clip's step
// cycles (touchdown to touchdown, from the clip's first step) together last at least (plan steps after
// it) x (min_single_support + min_double_support) once stretched; the caller plays the upper body on the
// same clock (plan_time), so the whole body stays in step. Then, one step after the other, each
// lift-off moves (at most) as far as needed for its transfer and its swing to reach their minimum durations,
// and where a cycle is too short for both (the clip steps faster there than the robot can: a lunge, both feet
// landing together), the touchdown waits and a later, slower cycle absorbs the delay; each move is one of the
// step's adjustments. A swing lasts at most limits.max_single_support: where the stretched clip holds a foot
// up longer, the lift-off waits in double support (the CoM would settle over the support sole, a lean the
// smaller robots' leg rolls do not reach). So the feet follow the clip's rhythm where the robot can, and
// never a uniform slow-down of a whole clip for one hurried step. The first transfer (the weight shift before
// the first lift-off, which contacts do not show) and the final one last as long as the median transfer of
// the steps (at least min_double_support); when the clip lifts its first foot too early for that, time_offset
// > 0 delays the whole clip on the robot's clock. The final hold runs to the clip's end, and at least
// limits.settle_time (the CoM comes to rest over the feet).
// A clip without steps is one hold as long as the clip (no transfer, no final hold: nothing moves).
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "mimic/pipeline/step_limits.hpp"
#include "mimic/retarget/clip_contacts.hpp"
#include "mimic/retarget/time_reparameterization.hpp"
#include "mimic/walking/footsteps.hpp"

namespace mimic::pipeline {

struct ClipFootstepPlan {
  // On the robot's clock (plan_time below), feet at the robot's initial stance; source names the clip's
  // footsteps in WalkSchedule's messages, each step's line is 0.
  walking::FootstepPlan plan;
  struct Step {
    int clip_footstep = -1;  // index in ClipContacts::footsteps
    walking::Foot foot = walking::Foot::kRight;
    Eigen::Vector2d scaled_human = Eigen::Vector2d::Zero();  // robot world frame, before the limits
    double scaled_human_yaw = 0.0;
    double clip_time = 0.0;  // touchdown, s from the clip's first frame
    // Touchdown on the plan's clock: plan_time(robot_time(clip_time)), later when the touchdown waits.
    double robot_time = 0.0;
    // What was clamped or moved and why, one line each ("forward step 0.45 m > max_forward 0.28 m: ...").
    std::vector<std::string> adjustments;
    // A catch-up step inserted before the clip's step `clip_footstep` (scaled_human: where it aimed; not a
    // human footstep, so not one of the placement error's).
    bool inserted = false;
  };
  std::vector<Step> steps;     // one per plan step
  double time_stretch = 1.0;   // extra slow-down while walking (>= 1): the robot's average stepping pace
  double time_offset = 0.0;    // s on the plan's clock before the clip's first frame (an early first step)
  double stretch_start = 0.0;  // robot times (before the stretch) between which time_stretch applies
  double stretch_end = 0.0;
  double human_travel = 0.0;   // m, the pelvis's displacement from the clip's start to its end
  double scaled_travel = 0.0;  // m, human_travel * scale

  // The plan's time of a robot time (robot_time of a clip time), and back.
  double plan_time(double robot_time) const {
    return time_offset + robot_time +
           (time_stretch - 1.0) * std::clamp(robot_time - stretch_start, 0.0, stretch_end - stretch_start);
  }
  double robot_time_at(double plan_time) const;
};

// The plan of the clip whose contacts are `contacts`, for a robot `scale` times the human's size
// (robot/human, > 0), whose feet stand at initial_right and initial_left (nominal_stance()). `robot_time`
// maps a clip time (s from its first frame) to the robot's time before the stretch: the re-timing of
// Algorithm 1 (interpolated RetimedSamples::times), or the identity when the motion is not re-timed; it must
// be non-decreasing. Throws InputError when the clip has a flight phase ("running and jumping are not
// supported (both feet off the floor at t = ... s)") or a foot that never touches the floor.
ClipFootstepPlan plan_clip_footsteps(const retarget::ClipContacts& contacts, double scale,
                                     const std::function<double(double)>& robot_time,
                                     const walking::FootPlacement& initial_right,
                                     const walking::FootPlacement& initial_left, const StepLimits& limits);

// The robot_time of a motion re-timed by Algorithm 1: clip time t is the input sample t * source_rate
// (the samples start with the clip), whose re-timed time interpolates RetimedSamples::times linearly
// (extrapolated at the source rate beyond the last sample, 0 before the first).
double retimed_clip_time(const retarget::RetimedSamples& retimed, double clip_time);

}  // namespace mimic::pipeline
