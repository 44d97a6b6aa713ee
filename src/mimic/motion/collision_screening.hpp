// Which collision pairs the retarget problem constrains, and where a motion breaks the safety distance
// (issue 13). A pair gets rows only when the active joints can move its shapes apart (a dof of one of them
// moves one shape and not the other: e.g. a hand and a thigh through the arm, not the two thighs), and only
// when it comes near on the reference: within the safety distance plus an activation distance at some
// sample (optimize_motion.hpp says which). Any other pair costs no row; a solution that brings one of them
// inside the safety distance is caught by the check after each solve, which adds the pair and the samples.
#pragma once

#include <Eigen/Core>
#include <limits>
#include <vector>

#include "mimic/core/thread_pool.hpp"
#include "mimic/geometry/collision_model.hpp"
#include "mimic/model/model.hpp"

namespace mimic::motion {

// The pairs of `cmodel` whose distance a dof of the joints `active` (model joint indices) changes.
std::vector<int> movable_pairs(const model::Model& model, const geometry::CollisionModel& cmodel,
                               const std::vector<int>& active);

// The listed pairs over the configurations q (nq x N).
struct PairScan {
  std::vector<int> near_pairs;    // listed pairs closer than `below` at some sample, ascending
  std::vector<int> near_samples;  // samples where some listed pair is closer than `below`, ascending
  double min_distance = std::numeric_limits<double>::infinity();  // m, over the listed pairs
  int closest_pair = -1;  // the pair (index into cmodel.pairs) and sample of min_distance
  int closest_sample = -1;
};

// `pool` (optional): the samples' threads (geometry/motion_distances); the scan does not depend on it.
PairScan scan_pairs(const model::Model& model, const geometry::CollisionModel& cmodel,
                    const std::vector<int>& pairs, const Eigen::MatrixXd& q, double below,
                    core::ThreadPool* pool = nullptr);
// The same scan of distances already computed: `distance` is geometry::motion_distances(..).distance of the
// configurations (every pair of the collision model x N), so that several scans of one motion (other pairs,
// other thresholds) share one pass over its samples.
PairScan scan_pairs(const Eigen::MatrixXd& distance, const std::vector<int>& pairs, double below);

}  // namespace mimic::motion
