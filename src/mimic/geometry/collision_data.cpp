#include "mimic/geometry/collision_data.hpp"

namespace mimic::geometry {

CollisionData::CollisionData(const model::Model& model, const CollisionModel& cmodel)
    : contacts(cmodel.pairs.size()),
      distance(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(cmodel.pairs.size()))),
      corner_height(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(cmodel.corners.size()))),
      distance_gradient(GradientRows::Zero(static_cast<Eigen::Index>(cmodel.pairs.size()), model.nv)),
      corner_gradient(GradientRows::Zero(static_cast<Eigen::Index>(cmodel.corners.size()), model.nv)),
      world_axes(Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, model.nv)),
      body_jacobian(Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, model.nv)) {}

}  // namespace mimic::geometry
