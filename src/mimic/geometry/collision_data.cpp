#include "mimic/geometry/collision_data.hpp"

namespace mimic::geometry {

PlacedShapes::PlacedShapes(const CollisionModel& cmodel)
    : a(cmodel.shapes.size(), Vec3::Zero()),
      b(cmodel.shapes.size(), Vec3::Zero()),
      box(cmodel.shapes.size()),
      bounding_centre(cmodel.shapes.size(), Vec3::Zero()) {}

CollisionData::CollisionData(const model::Model& model, const CollisionModel& cmodel)
    : placed(cmodel),
      contacts(cmodel.pairs.size()),
      distance(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(cmodel.pairs.size()))),
      corner_height(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(cmodel.corners.size()))),
      distance_gradient(GradientRows::Zero(static_cast<Eigen::Index>(cmodel.pairs.size()), model.nv)),
      corner_gradient(GradientRows::Zero(static_cast<Eigen::Index>(cmodel.corners.size()), model.nv)),
      near_pairs(Eigen::VectorXi::Zero(static_cast<Eigen::Index>(cmodel.pairs.size()))),
      world_axes(WorldAxes::Zero(model.nv, 6)) {}

}  // namespace mimic::geometry
