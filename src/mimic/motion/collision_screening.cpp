#include "mimic/motion/collision_screening.hpp"

#include <algorithm>

#include "mimic/geometry/motion_distances.hpp"

namespace mimic::motion {

std::vector<int> movable_pairs(const model::Model& model, const geometry::CollisionModel& cmodel,
                               const std::vector<int>& active) {
  std::vector<char> moved(static_cast<std::size_t>(model.nv), 0);
  for (const int joint : active) moved[static_cast<std::size_t>(model.idx_v(joint))] = 1;
  std::vector<int> pairs;
  for (int p = 0; p < static_cast<int>(cmodel.pairs.size()); ++p) {
    const geometry::CollisionPair& pair = cmodel.pairs[static_cast<std::size_t>(p)];
    const auto moves = [&](const std::vector<int>& columns) {
      return std::any_of(columns.begin(), columns.end(),
                         [&](int c) { return moved[static_cast<std::size_t>(c)]; });
    };
    if (moves(pair.first_only) || moves(pair.second_only)) pairs.push_back(p);
  }
  return pairs;
}

PairScan scan_pairs(const model::Model& model, const geometry::CollisionModel& cmodel,
                    const std::vector<int>& pairs, const Eigen::MatrixXd& q, double below,
                    core::ThreadPool* pool) {
  return scan_pairs(geometry::motion_distances(model, cmodel, q, pool).distance, pairs, below);
}

PairScan scan_pairs(const Eigen::MatrixXd& distance, const std::vector<int>& pairs, double below) {
  std::vector<char> near(static_cast<std::size_t>(distance.rows()), 0);
  PairScan scan;
  for (Eigen::Index n = 0; n < distance.cols(); ++n) {
    bool sample_near = false;
    for (const int p : pairs) {
      const double d = distance(p, n);
      if (d < below) {
        near[static_cast<std::size_t>(p)] = 1;
        sample_near = true;
      }
      if (d < scan.min_distance) {
        scan.min_distance = d;
        scan.closest_pair = p;
        scan.closest_sample = static_cast<int>(n);
      }
    }
    if (sample_near) scan.near_samples.push_back(static_cast<int>(n));
  }
  for (int p = 0; p < static_cast<int>(near.size()); ++p) {
    if (near[static_cast<std::size_t>(p)]) scan.near_pairs.push_back(p);
  }
  return scan;
}

}  // namespace mimic::motion
