#include "mimic/geometry/distances.hpp"

#include <utility>

#include "mimic/dynamics/kinematics.hpp"

namespace mimic::geometry {
namespace {

using spatial::SE3;

OrientedBox world_box(const CollisionShape& shape, const SE3& pose) {
  const SE3 placed = pose * shape.placement;
  return {placed.R, placed.p, shape.half};
}

Contact flipped(Contact c) {
  std::swap(c.on_first, c.on_second);
  c.normal = -c.normal;
  return c;
}

// d distance / dq for the velocity columns of one shape: sign * (n . v_c + (p x n) . w_c).
void add_columns(const Eigen::Matrix<double, 6, Eigen::Dynamic>& axes, const std::vector<int>& columns,
                 const Vec3& n, const Vec3& p, double sign, Eigen::Ref<Eigen::RowVectorXd> row) {
  const Vec3 moment = p.cross(n);
  for (const int c : columns)
    row[c] += sign * (n.dot(axes.col(c).head<3>()) + moment.dot(axes.col(c).tail<3>()));
}

void distances_at_placed_bodies(const model::Data& data, const CollisionModel& cmodel, CollisionData& cdata) {
  for (size_t k = 0; k < cmodel.pairs.size(); ++k) {
    const CollisionPair& pair = cmodel.pairs[k];
    const CollisionShape& first = cmodel.shapes[static_cast<size_t>(pair.first)];
    const CollisionShape& second = cmodel.shapes[static_cast<size_t>(pair.second)];
    cdata.contacts[k] = shape_distance(first, data.oMi[static_cast<size_t>(first.body)], second,
                                       data.oMi[static_cast<size_t>(second.body)]);
    cdata.distance[static_cast<Eigen::Index>(k)] = cdata.contacts[k].distance;
  }
  for (size_t k = 0; k < cmodel.corners.size(); ++k) {
    const SoleCorner& corner = cmodel.corners[k];
    cdata.corner_height[static_cast<Eigen::Index>(k)] =
        data.oMi[static_cast<size_t>(corner.body)].act(corner.point).z();
  }
}

}  // namespace

Contact shape_distance(const CollisionShape& first, const SE3& first_pose, const CollisionShape& second,
                       const SE3& second_pose) {
  const bool first_capsule = first.kind == ShapeKind::kCapsule;
  const bool second_capsule = second.kind == ShapeKind::kCapsule;
  Contact c;
  if (first_capsule && second_capsule) {
    c = segment_segment(first_pose.act(first.a), first_pose.act(first.b), second_pose.act(second.a),
                        second_pose.act(second.b));
  } else if (first_capsule) {
    c = segment_box(first_pose.act(first.a), first_pose.act(first.b), world_box(second, second_pose));
  } else if (second_capsule) {
    c = flipped(
        segment_box(second_pose.act(second.a), second_pose.act(second.b), world_box(first, first_pose)));
  } else {
    c = box_box(world_box(first, first_pose), world_box(second, second_pose));
  }
  // The capsules' radii move the surfaces along the normal: the witness points go with them.
  const double r1 = first_capsule ? first.radius : 0.0, r2 = second_capsule ? second.radius : 0.0;
  c.distance -= r1 + r2;
  c.on_first -= r1 * c.normal;
  c.on_second += r2 * c.normal;
  return c;
}

void compute_distances(const model::Model& model, model::Data& data, const CollisionModel& cmodel,
                       CollisionData& cdata, const ConfigRef& q) {
  dynamics::forward_kinematics(model, data, q);
  distances_at_placed_bodies(data, cmodel, cdata);
}

void compute_distance_gradients(const model::Model& model, model::Data& data, const CollisionModel& cmodel,
                                CollisionData& cdata, const ConfigRef& q) {
  compute_distances(model, data, cmodel, cdata, q);
  for (size_t k = 0; k < cmodel.jacobian_bodies.size(); ++k) {
    dynamics::body_jacobian(model, data, cmodel.jacobian_bodies[k], dynamics::ReferenceFrame::kWorld,
                            cdata.body_jacobian);
    for (const int c : cmodel.jacobian_columns[k]) cdata.world_axes.col(c) = cdata.body_jacobian.col(c);
  }
  cdata.distance_gradient.setZero();
  for (size_t k = 0; k < cmodel.pairs.size(); ++k) {
    const CollisionPair& pair = cmodel.pairs[k];
    const Contact& c = cdata.contacts[k];
    auto row = cdata.distance_gradient.row(static_cast<Eigen::Index>(k));
    add_columns(cdata.world_axes, pair.first_only, c.normal, c.on_first, 1.0, row);
    add_columns(cdata.world_axes, pair.second_only, c.normal, c.on_second, -1.0, row);
  }
  cdata.corner_gradient.setZero();
  for (size_t k = 0; k < cmodel.corners.size(); ++k) {
    const SoleCorner& corner = cmodel.corners[k];
    const Vec3 p = data.oMi[static_cast<size_t>(corner.body)].act(corner.point);
    add_columns(cdata.world_axes, corner.columns, Vec3::UnitZ(), p, 1.0,
                cdata.corner_gradient.row(static_cast<Eigen::Index>(k)));
  }
}

}  // namespace mimic::geometry
