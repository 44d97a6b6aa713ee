// The base (waist) poses of a joint trajectory that comes without them (a .pos without .waist), from the
// support foot: the foot on the ground stays where it is and the base follows the legs.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/model/model.hpp"
#include "mimic/spatial/se3.hpp"
#include "mimic/stability/ground_reaction.hpp"

namespace mimic::stability {

// `joints`: nj x N, one column of joint angles (model order) per sample; returns the N base poses in the
// world. The first sample stands with both soles flat on z = 0; afterwards the foot in support (the foot
// lower in the world) stays where it is and the base follows. Support passes to the other foot as soon as
// it is lower by more than `hysteresis` (m): in double support both soles are on the ground, so either
// gives the same base, and switching at the first micrometre of lift (not after a few millimetres) keeps
// the lifting foot from dragging the base down and the foot still on the ground from sliding. On a switch
// the new support sole is put back on z = 0 when it is within a millimetre of it, so that rounding does
// not accumulate over the steps. `orientations` (N base orientations in the world, optional, from .hip)
// fixes the base orientation instead of the support foot's. Throws ModelError without a free-flyer base.
std::vector<spatial::SE3> reconstruct_base(const model::Model& model, const Feet& feet,
                                           const Eigen::MatrixXd& joints,
                                           const std::vector<Eigen::Matrix3d>* orientations = nullptr,
                                           double hysteresis = 1e-6);

}  // namespace mimic::stability
