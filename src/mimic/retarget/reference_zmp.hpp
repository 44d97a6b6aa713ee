// The ZMP of a kinematic reference, for its .zmp file: the multibody ZMP (dynamics::zmp) of the whole
// robot moving as the reference says, with the legs as given (half-sitting in the kinematic baseline).
#pragma once

#include <Eigen/Core>

#include "mimic/model/model.hpp"
#include "mimic/retarget/reference_motion.hpp"

namespace mimic::retarget {

// Multibody ZMP on the ground plane z = 0 of a reference, in the world (3 x N); the .zmp file's waist
// frame is io's matter (io/zmp_frame.hpp). Velocities and accelerations are the motion's own
// (model::differentiate). A sample whose ground reaction would have to pull (the waist falling faster than
// gravity) gets the static CoM projection instead; their number goes to `fallback_samples`. `model` needs
// a free-flyer base.
Eigen::MatrixXd reference_zmp(const model::Model& model, const ReferenceMotion& reference,
                              int* fallback_samples = nullptr);

}  // namespace mimic::retarget
