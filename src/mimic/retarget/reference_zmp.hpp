// The ZMP of a kinematic reference, for its .zmp file: the multibody ZMP (dynamics::zmp) of the whole
// robot moving as the reference says, with the legs as given (half-sitting in the kinematic baseline).
#pragma once

#include "mimic/model/model.hpp"
#include "mimic/retarget/reference_motion.hpp"

namespace mimic::retarget {

// Multibody ZMP on the ground plane z = 0 of a uniformly sampled reference, in the world (samples x 3);
// the .zmp file's waist frame is io's matter (io/zmp_frame.hpp). Velocities and accelerations are central
// finite differences of the configurations (the robot holds the first pose before the motion and the last one
// after it). A sample whose ground reaction would have to pull (the waist falling faster than gravity) gets
// the static CoM projection instead; their number goes to `fallback_samples`. `model` needs a free-flyer
// base.
SampleMatrix reference_zmp(const model::Model& model, const ReferenceMotion& reference,
                           int* fallback_samples = nullptr);

}  // namespace mimic::retarget
