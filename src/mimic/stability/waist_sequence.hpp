// The .waist file of a whole-body motion: the free-flyer base pose of every sample as x y z roll pitch yaw
// (hrpsys' convention), with the angles unwrapped from one sample to the next so that a yaw turning past pi
// stays continuous (an interpolating player would otherwise spin the robot round).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/io/sequence.hpp"
#include "mimic/model/model.hpp"

namespace mimic::stability {

// `q`: one free-flyer configuration per column (model.nq rows), one column per entry of `times`.
io::WaistSequence waist_sequence(const model::Model& model, const std::vector<double>& times,
                                 const Eigen::MatrixXd& q);

}  // namespace mimic::stability
