// How closely a written motion imitates its re-timed reference (the retarget summary's "imitation" line):
// the RMS joint error over the description's imitating joints, and the head and hand position errors in
// the waist frame against the actor's scaled end effectors P_c.
#pragma once

#include <functional>

#include "mimic/evaluation/report.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/pipeline/robot.hpp"
#include "mimic/retarget/reference_motion.hpp"

namespace mimic::pipeline {

// Sample k of `motion` (at time t) is compared with the reference sample nearest to reference_time(t)
// (the identity when empty): the whole-body retarget plays the reference on its footstep plan's clock,
// slowed down while it walks and delayed (ClipFootstepPlan::robot_time_at); seed 000's motion shares the
// reference's samples. Samples outside the reference (a walk's first transfer or final hold) are not
// counted.
evaluation::ImitationErrors imitation_errors(const Robot& robot, const retarget::ReferenceMotion& reference,
                                             const model::SampledMotion& motion,
                                             const std::function<double(double)>& reference_time = {});

}  // namespace mimic::pipeline
