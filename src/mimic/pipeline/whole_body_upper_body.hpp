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
// The arms' clearance from the legs is not this step's: the reference knows nothing of the robot's legs
// (CMU 131_01's left hand goes 7.5 cm into HRP-2's left thigh on this pattern), and the solve of the upper
// body on the walk that follows (pipeline/whole_body_upper_body_solve.hpp) keeps every pair the upper
// body moves apart by its rows. (Least-norm arm corrections from the pair gradients, in rounds of fit and
// pattern, did it here before; the solve imitates better: 131_01 joint RMSE 0.044 against 0.048 rad.)
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

// Steps 1-3. Throws what generate_walking_pattern throws.
WalkWithUpperBody walk_with_upper_body(const Robot& robot, const retarget::ReferenceMotion& reference,
                                       const ClipFootstepPlan& planned, const walking::WalkSchedule& schedule,
                                       const walking::WalkingOptions& options);

}  // namespace mimic::pipeline
