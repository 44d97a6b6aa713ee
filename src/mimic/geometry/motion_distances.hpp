// The pair distances and sole-corner heights of every configuration of a motion: what the check
// (evaluation/geometry_check) and the retarget's screening (motion/collision_screening,
// motion/reference_clearance) scan. One compute_distances per sample, each writing its own column only, so
// that the samples can run on a pool's threads with the values of a single thread.
#pragma once

#include <Eigen/Core>

#include "mimic/core/thread_pool.hpp"
#include "mimic/geometry/collision_model.hpp"
#include "mimic/model/model.hpp"

namespace mimic::geometry {

struct MotionDistances {
  Eigen::MatrixXd distance;       // pairs x N: cmodel.pairs' signed distances (m), distances.hpp
  Eigen::MatrixXd corner_height;  // corners x N: cmodel.corners' heights above z = 0 (m)
};

// q: nq x N. `pool` (optional): the samples' threads; the values do not depend on it.
MotionDistances motion_distances(const model::Model& model, const CollisionModel& cmodel,
                                 const Eigen::MatrixXd& q, core::ThreadPool* pool = nullptr);

}  // namespace mimic::geometry
