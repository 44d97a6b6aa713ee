// CollisionData: the scratch memory and results of distances.hpp for one CollisionModel (one per thread,
// like model::Data). Every buffer is sized in the constructor, so the distance functions do not allocate.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/geometry/collision_model.hpp"

namespace mimic::geometry {

// Gradient rows, one per pair or corner (row-major: each row is written and read whole).
using GradientRows = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Row c: the spatial axis [v; w] of dof c (world origin, world axes). The layout of
// dynamics::DerivativeData::J (column-major), so the terms pass that one as it is: a gradient run
// (collision_model.hpp ColumnRange) is then six contiguous column segments scaled and summed, which
// vectorizes over the run's dofs.
using WorldAxes = Eigen::Matrix<double, Eigen::Dynamic, 6>;

// The shapes of a CollisionModel placed in the world at one configuration (index = shape index): placed
// once per configuration, then read by every pair the shape is in.
struct PlacedShapes {
  explicit PlacedShapes(const CollisionModel& cmodel);
  std::vector<Vec3> a, b;             // capsules: the segment's ends
  std::vector<OrientedBox> box;       // boxes
  std::vector<Vec3> bounding_centre;  // every shape: its bounding sphere's centre
};

struct CollisionData {
  CollisionData(const model::Model& model, const CollisionModel& cmodel);

  PlacedShapes placed;
  // Per pair (cmodel.pairs): signed distance between the two shapes (m, < 0 when they overlap) and the
  // closest points; per sole corner (cmodel.corners): height above the ground plane z = 0 (m).
  std::vector<Contact> contacts;
  Eigen::VectorXd distance;
  Eigen::VectorXd corner_height;
  // Gradients in the tangent space of q (rows, size pairs x nv and corners x nv): d distance / dq. Only a
  // pair's (corner's) own columns are ever written: the others are zero from the constructor on.
  GradientRows distance_gradient;
  GradientRows corner_gradient;
  // The pairs compute_near_distance_gradients evaluated: the first near_count entries, in pair order.
  Eigen::VectorXi near_pairs;
  int near_count = 0;

  WorldAxes world_axes;  // every dof's world axis at q
};

}  // namespace mimic::geometry
