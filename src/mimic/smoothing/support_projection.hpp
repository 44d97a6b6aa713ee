// The final projection of a smoothed motion on the exact support constraint: at every sample, each foot in
// support is put back at the pose it had (in the PLANNED motion) when its support began, by re-solving its
// leg with the analytic leg IK (stability/leg_ik.hpp, exact to 1e-9 m / rad) for the base pose of that
// sample. The optimiser's equalities hold only on a grid and its penalty keeps the foot within 0.1 mm and
// 0.01 degree between them (measured 0.078 mm, 0.0013 degree on the shipped walk; the smoothing tests bound
// max_foot_error / max_foot_rotation), so the legs move by small, smooth amounts (0.42 mrad there); what
// changes is measured (max_angle_change) and the written motion is evaluated again after the projection.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/model/model.hpp"
#include "mimic/stability/ground_reaction.hpp"
#include "mimic/stability/sampled_motion.hpp"

namespace mimic::smoothing {

struct ProjectionReport {
  double max_angle_change = 0.0;   // rad, largest leg joint change made by the projection
  double max_foot_error = 0.0;     // m, largest support-foot displacement before the projection
  double max_foot_rotation = 0.0;  // rad, largest support-foot rotation before the projection
};

// Projects q (nq x N, columns = samples of `planned`) in place. `planned` gives the phases and the support
// placements. Throws InfeasibleError naming the sample and the leg when the IK fails (out of reach, joint
// limit).
ProjectionReport project_support_feet(const model::Model& model, const stability::Feet& feet,
                                      const stability::SampledMotion& planned, Eigen::MatrixXd& q);

}  // namespace mimic::smoothing
