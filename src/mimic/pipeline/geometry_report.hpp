// The geometry numbers of every report (issue 13): `mimic check`, retarget, smooth and walk put the same
// keys in their JSON "summary" object, so that batch and users read them alike.
#pragma once

#include <optional>

#include "mimic/evaluation/geometry_check.hpp"
#include "mimic/io/json.hpp"

namespace mimic::pipeline {

// The summary line of the geometry, for the commands (which call pipeline/ only).
using evaluation::format_geometry_report;

// Adds to `summary`: geometry_checked, and when checked safety_distance_m, min_pair_distance_m,
// closest_pair ("HEAD_LINK1 / RARM_LINK6"), min_pair_distance_time_s, samples_below_safety_distance,
// min_sole_corner_height_m, lowest_corner ("right" / "left" foot), min_sole_corner_height_time_s,
// samples_below_ground. A number that does not exist (no pair, no corner) is null.
void add_geometry_summary(io::Json& summary, const std::optional<evaluation::GeometryReport>& geometry);

}  // namespace mimic::pipeline
