// CollisionData: the scratch memory and results of distances.hpp for one CollisionModel (one per thread,
// like model::Data). Every buffer is sized in the constructor, so the distance functions do not allocate.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/geometry/collision_model.hpp"

namespace mimic::geometry {

// Gradient rows, one per pair or corner (row-major: each row is written and read whole).
using GradientRows = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct CollisionData {
  CollisionData(const model::Model& model, const CollisionModel& cmodel);

  // Per pair (cmodel.pairs): signed distance between the two shapes (m, < 0 when they overlap) and the
  // closest points; per sole corner (cmodel.corners): height above the ground plane z = 0 (m).
  std::vector<Contact> contacts;
  Eigen::VectorXd distance;
  Eigen::VectorXd corner_height;
  // Gradients in the tangent space of q (rows, size pairs x nv and corners x nv): d distance / dq.
  GradientRows distance_gradient;
  GradientRows corner_gradient;

  // The world Jacobian whose column c is the spatial axis [v; w] of dof c (world origin, world axes), and
  // the Jacobian scratch it is gathered from.
  Eigen::Matrix<double, 6, Eigen::Dynamic> world_axes;
  Eigen::Matrix<double, 6, Eigen::Dynamic> body_jacobian;
};

}  // namespace mimic::geometry
