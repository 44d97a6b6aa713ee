#include "mimic/pipeline/geometry_report.hpp"

#include <cmath>

namespace mimic::pipeline {

void add_geometry_summary(io::Json& summary, const std::optional<evaluation::GeometryReport>& geometry) {
  summary["geometry_checked"] = geometry.has_value();
  if (!geometry) return;
  const evaluation::GeometryReport& g = *geometry;
  const bool any_pair = std::isfinite(g.min_distance), any_corner = std::isfinite(g.min_corner_height);
  summary["safety_distance_m"] = g.safety_distance;
  summary["min_pair_distance_m"] = g.min_distance;  // null when infinite
  summary["closest_pair"] = any_pair ? io::Json(g.closest_first + " / " + g.closest_second) : io::Json();
  summary["min_pair_distance_time_s"] = any_pair ? io::Json(g.min_distance_time) : io::Json();
  summary["samples_below_safety_distance"] = g.samples_below_safety;
  summary["min_sole_corner_height_m"] = g.min_corner_height;
  summary["lowest_corner"] = any_corner ? io::Json(g.lowest_corner_foot) : io::Json();
  summary["min_sole_corner_height_time_s"] = any_corner ? io::Json(g.min_corner_time) : io::Json();
  summary["samples_below_ground"] = g.samples_below_ground;
}

}  // namespace mimic::pipeline
