// How closely a written motion imitates its re-timed reference (the retarget summary's "imitation" line):
// the RMS joint error over the description's imitating joints, and the head and hand position errors in
// the waist frame against the actor's scaled end effectors P_c.
#pragma once

#include "mimic/evaluation/report.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/pipeline/robot.hpp"
#include "mimic/retarget/reference_motion.hpp"

namespace mimic::pipeline {

// Sample k of `motion` (at time t) is compared with the reference sample nearest to (t - time_offset) /
// time_stretch: the whole-body retarget plays the reference on its footstep plan's clock, slowed down and
// delayed (stretch 1 and offset 0 for seed 000, whose motion shares the reference's samples). Samples
// outside the reference (a walk's first transfer or final hold) are not counted.
evaluation::ImitationErrors imitation_errors(const Robot& robot, const retarget::ReferenceMotion& reference,
                                             const model::SampledMotion& motion, double time_stretch = 1.0,
                                             double time_offset = 0.0);

}  // namespace mimic::pipeline
