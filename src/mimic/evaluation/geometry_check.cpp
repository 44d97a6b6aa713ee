#include "mimic/evaluation/geometry_check.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "mimic/geometry/motion_distances.hpp"

namespace mimic::evaluation {
namespace {

// Keeps the smallest value of one offender (a pair or a foot) and counts the samples it offends in.
void record(GeometryOffence& offence, double value, double time, Eigen::Index sample) {
  if (offence.samples++ == 0 || value < offence.value) offence.value = value, offence.time = time;
  offence.sample_indices.push_back(static_cast<int>(sample));
}

}  // namespace

GeometryReport check_geometry(const model::Model& model, const geometry::CollisionModel& cmodel,
                              const model::SampledMotion& motion, const GeometryCheckOptions& options,
                              core::ThreadPool* pool) {
  if (motion.q.rows() != model.nq || motion.q.cols() != motion.size())
    throw std::invalid_argument("check_geometry: q must be nq x N (" + std::to_string(model.nq) + " x " +
                                std::to_string(motion.size()) + ")");
  // The distances of every sample first (on the pool), then the offences in sample order.
  const geometry::MotionDistances distances = geometry::motion_distances(model, cmodel, motion.q, pool);
  GeometryReport report;
  report.safety_distance = options.safety_distance;
  const Eigen::Index n = motion.size();
  constexpr double kNone = std::numeric_limits<double>::infinity();
  report.sample_min_distance = Eigen::VectorXd::Constant(n, kNone);
  report.sample_min_corner_height = Eigen::VectorXd::Constant(n, kNone);
  std::vector<GeometryOffence> per_pair(cmodel.pairs.size());
  // One entry per foot, in the order the corners name them.
  std::vector<GeometryOffence> per_foot;
  std::vector<int> corner_foot(cmodel.corners.size());
  for (std::size_t c = 0; c < cmodel.corners.size(); ++c) {
    const std::string where = cmodel.corners[c].foot + " foot";
    auto it = std::find_if(per_foot.begin(), per_foot.end(), [&](const auto& o) { return o.where == where; });
    if (it == per_foot.end()) it = per_foot.insert(per_foot.end(), GeometryOffence{where});
    corner_foot[c] = static_cast<int>(it - per_foot.begin());
  }
  std::vector<double> lowest_of_foot(per_foot.size());
  int closest_pair = -1;
  for (Eigen::Index k = 0; k < n; ++k) {
    const auto distance_of_pair = distances.distance.col(k);
    const auto corner_height = distances.corner_height.col(k);
    const double time = motion.times[static_cast<size_t>(k)];
    bool any_below = false;
    for (Eigen::Index p = 0; p < distance_of_pair.size(); ++p) {
      const double distance = distance_of_pair[p];
      report.sample_min_distance[k] = std::min(report.sample_min_distance[k], distance);
      if (distance < options.safety_distance)
        record(per_pair[static_cast<size_t>(p)], distance, time, k), any_below = true;
      if (distance < report.min_distance) {
        report.min_distance = distance;
        report.min_distance_time = time;
        closest_pair = static_cast<int>(p);
      }
    }
    report.samples_below_safety += any_below;
    // A foot offends once per sample, at its lowest corner.
    std::fill(lowest_of_foot.begin(), lowest_of_foot.end(), kNone);
    Eigen::Index lowest_corner = 0;
    for (Eigen::Index c = 0; c < corner_height.size(); ++c) {
      double& lowest = lowest_of_foot[static_cast<size_t>(corner_foot[static_cast<size_t>(c)])];
      lowest = std::min(lowest, corner_height[c]);
      if (corner_height[c] < corner_height[lowest_corner]) lowest_corner = c;
    }
    for (std::size_t f = 0; f < per_foot.size(); ++f)
      if (lowest_of_foot[f] < -options.ground_tolerance) record(per_foot[f], lowest_of_foot[f], time, k);
    if (corner_height.size() == 0) continue;
    const double lowest = corner_height[lowest_corner];
    report.sample_min_corner_height[k] = lowest;
    report.samples_below_ground += lowest < -options.ground_tolerance;
    if (lowest < report.min_corner_height) {
      report.min_corner_height = lowest;
      report.min_corner_time = time;
      report.lowest_corner_foot = cmodel.corners[static_cast<size_t>(lowest_corner)].foot;
    }
  }
  if (closest_pair >= 0) {
    const geometry::CollisionPair& pair = cmodel.pairs[static_cast<size_t>(closest_pair)];
    report.closest_first = cmodel.shapes[static_cast<size_t>(pair.first)].link;
    report.closest_second = cmodel.shapes[static_cast<size_t>(pair.second)].link;
    report.closest_pair_samples_below = per_pair[static_cast<size_t>(closest_pair)].samples;
  }
  for (std::size_t p = 0; p < per_pair.size(); ++p) {
    if (per_pair[p].samples == 0) continue;
    per_pair[p].where = cmodel.pair_name(static_cast<int>(p));
    report.pair_offences.push_back(std::move(per_pair[p]));
  }
  for (auto& foot : per_foot)
    if (foot.samples > 0) report.foot_offences.push_back(std::move(foot));
  return report;
}

}  // namespace mimic::evaluation
