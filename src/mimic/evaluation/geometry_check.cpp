#include "mimic/evaluation/geometry_check.hpp"

#include <stdexcept>
#include <vector>

#include "mimic/geometry/distances.hpp"

namespace mimic::evaluation {

GeometryReport check_geometry(const model::Model& model, const geometry::CollisionModel& cmodel,
                              const model::SampledMotion& motion, const GeometryCheckOptions& options) {
  if (motion.q.rows() != model.nq || motion.q.cols() != motion.size())
    throw std::invalid_argument("check_geometry: q must be nq x N (" + std::to_string(model.nq) + " x " +
                                std::to_string(motion.size()) + ")");
  model::Data data(model);
  geometry::CollisionData cdata(model, cmodel);
  GeometryReport report;
  std::vector<int> below_per_pair(cmodel.pairs.size(), 0);
  int closest_pair = -1;
  for (Eigen::Index k = 0; k < motion.size(); ++k) {
    geometry::compute_distances(model, data, cmodel, cdata, motion.q.col(k));
    const double time = motion.times[static_cast<size_t>(k)];
    bool any_below = false;
    for (Eigen::Index p = 0; p < cdata.distance.size(); ++p) {
      const double distance = cdata.distance[p];
      if (distance < options.safety_distance) ++below_per_pair[static_cast<size_t>(p)], any_below = true;
      if (distance < report.min_distance) {
        report.min_distance = distance;
        report.min_distance_time = time;
        closest_pair = static_cast<int>(p);
      }
    }
    report.samples_below_safety += any_below;
    Eigen::Index corner = 0;
    const double lowest = cdata.corner_height.size() > 0 ? cdata.corner_height.minCoeff(&corner)
                                                         : std::numeric_limits<double>::infinity();
    report.samples_below_ground += lowest < -options.ground_tolerance;
    if (lowest < report.min_corner_height) {
      report.min_corner_height = lowest;
      report.min_corner_time = time;
      report.lowest_corner_foot = cmodel.corners[static_cast<size_t>(corner)].foot;
    }
  }
  if (closest_pair >= 0) {
    const geometry::CollisionPair& pair = cmodel.pairs[static_cast<size_t>(closest_pair)];
    report.closest_first = cmodel.shapes[static_cast<size_t>(pair.first)].link;
    report.closest_second = cmodel.shapes[static_cast<size_t>(pair.second)].link;
    report.closest_pair_samples_below = below_per_pair[static_cast<size_t>(closest_pair)];
  }
  return report;
}

}  // namespace mimic::evaluation
