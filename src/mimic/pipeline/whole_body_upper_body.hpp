// The upper body of a whole-body walk (pipeline/whole_body_retarget.hpp, step 3): the kinematic
// reference's upper-body joints made fit to be carried by the walking pattern, and the pattern itself.
//
//   1. the reference's joints at its re-timed times on the plan's clock (slowed down by the plan's
//      stretch, after its offset), joined by cubic Hermite pieces (walking/walking_upper_body.hpp) and
//      resampled on the walk's grid (every control period from t = 0, the pattern's samples);
//   2. a smoothing fit of those samples (trajectory/smoothing_fit.hpp, cutoff kUpperBodyCutoff): the
//      per-frame IK's frame-to-frame noise is an acceleration that the legs and the waist cannot cancel
//      (Qualisys on HRP-2: the chest yaw at up to 598 rad/s^2 on the clip's clock, CHEST_JOINT0 at 215 N m
//      against 151, the smoothing infeasible), bent onto the joint ranges where it would leave them
//      (smooth_samples_within);
//   3. the walking pattern (walking/walking_pattern.hpp) under that upper body;
//   4. clearance: the reference knows nothing of the robot's legs, and a hand that hangs beside a human
//      thigh goes through HRP-2's wider one when the legs swing (CMU 131_01: LARM_LINK6 7.5 cm into
//      LLEG_LINK2 over 4.2 s; Xsens: RARM_LINK6 5 cm into RLEG_LINK2), which the smoothing of the legs
//      cannot undo. At every sample of the pattern where an arm's shape comes closer than the safety
//      distance plus kClearanceMargin to another shape, the arm's joints get the least-norm change that
//      the distance's gradient says restores it (summed over the pairs); that correction, spread over
//      +- kClearanceSpread so that the smoothing fit keeps it, is added to the samples of step 1, and
//      steps 2-4 run again (at most kClearanceRounds times: the legs follow the arms' mass a little).
// The arms are the only joints moved for clearance: the chest and the head stay the reference's.
#pragma once

#include "mimic/pipeline/clip_footstep_plan.hpp"
#include "mimic/pipeline/robot.hpp"
#include "mimic/pipeline/whole_body_report.hpp"
#include "mimic/retarget/reference_motion.hpp"
#include "mimic/walking/walking_pattern.hpp"

namespace mimic::pipeline {

struct WalkWithUpperBody {
  walking::WalkingPattern pattern;
  WalkUpperBodyReport report;
};

// Steps 1-4. `safety_distance` is the geometry's (m); without a collision model step 4 is skipped.
// Throws what generate_walking_pattern throws.
WalkWithUpperBody walk_with_upper_body(const Robot& robot, const retarget::ReferenceMotion& reference,
                                       const ClipFootstepPlan& planned, const walking::WalkSchedule& schedule,
                                       const walking::WalkingOptions& options, double safety_distance);

}  // namespace mimic::pipeline
