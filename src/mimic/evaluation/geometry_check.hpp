// The geometry of a sampled motion (issue 13): the closest pair of collision shapes and the lowest
// sole-rectangle corner over all samples, every pair and foot that breaks the safety distance or goes below
// the floor (with how many samples), and the per-sample minima that `mimic plot` draws. `mimic check`
// (check.hpp) turns the offences into violations: one scan serves the verdict, the summaries and the plot.
#pragma once

#include <Eigen/Core>
#include <limits>
#include <string>
#include <vector>

#include "mimic/core/thread_pool.hpp"
#include "mimic/geometry/collision_model.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/sampled_motion.hpp"

namespace mimic::evaluation {

struct GeometryCheckOptions {
  // m: two shapes closer than this count as colliding (issue 13: default 0.01 m; job key
  // geometry.safety_distance, `mimic check --safety-distance`).
  double safety_distance = 0.01;
  // m a sole corner may be below z = 0 and still count as on the floor: a flat support foot computed
  // through a 0.65 m kinematic chain sits at z = 0 to ~1e-15, and the leg IK that plants the feet is held
  // to 1e-9 m; 1e-6 m is far below anything that damages a robot and above both.
  double ground_tolerance = 1.0e-6;
};

// The worst sample of one pair of shapes (closer than the safety distance) or of one foot's sole corners
// (below the floor).
struct GeometryOffence {
  std::string where;                // "RARM_LINK6 / HEAD_LINK1" (CollisionModel::pair_name) or "right foot"
  double value = 0.0;               // m: the pair's distance or the lowest corner's height at `time`
  double time = 0.0;                // s
  int samples = 0;                  // samples in which it breaks its bound
  std::vector<int> sample_indices;  // those samples' indices, increasing
};

struct GeometryReport {
  double safety_distance = 0.0;  // m, the bound the pairs were held to (GeometryCheckOptions)

  // The pair of shapes that came closest (URDF link names), the distance (m, < 0 when they overlap) and
  // its time; in how many samples that pair, and any pair, was closer than the safety distance.
  std::string closest_first, closest_second;
  double min_distance = std::numeric_limits<double>::infinity();
  double min_distance_time = 0.0;
  int closest_pair_samples_below = 0;
  int samples_below_safety = 0;

  // The lowest sole corner ("right" / "left" foot), its height (m) and time; samples with a corner below
  // -ground_tolerance.
  std::string lowest_corner_foot;
  double min_corner_height = std::numeric_limits<double>::infinity();
  double min_corner_time = 0.0;
  int samples_below_ground = 0;

  // Every pair closer than the safety distance in some sample (in the collision model's pair order), and
  // every foot with a corner below the floor.
  std::vector<GeometryOffence> pair_offences;
  std::vector<GeometryOffence> foot_offences;

  // Per sample: the smallest pair distance and the lowest corner height (m; +infinity for a model without
  // pairs or corners).
  Eigen::VectorXd sample_min_distance;
  Eigen::VectorXd sample_min_corner_height;

  bool collision_free() const { return samples_below_safety == 0; }
  bool above_ground() const { return samples_below_ground == 0; }
};

// Scans every sample of `motion` (q only). Throws std::invalid_argument when motion.q is not nq x N.
// `pool` (optional): the samples' threads (geometry/motion_distances); the report does not depend on it.
GeometryReport check_geometry(const model::Model& model, const geometry::CollisionModel& cmodel,
                              const model::SampledMotion& motion, const GeometryCheckOptions& options = {},
                              core::ThreadPool* pool = nullptr);

}  // namespace mimic::evaluation
