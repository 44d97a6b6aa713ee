#include "mimic/geometry/distances.hpp"

#include <utility>

#include "mimic/dynamics/kinematics.hpp"

namespace mimic::geometry {
namespace {

using spatial::SE3;

Contact flipped(Contact c) {
  std::swap(c.on_first, c.on_second);
  c.normal = -c.normal;
  return c;
}

// d distance / dq for the velocity columns of one shape: sign * (n . v_c + (p x n) . w_c). The columns of
// the two shapes of a pair are disjoint, so each entry is assigned once.
void write_columns(const WorldAxes& axes, const std::vector<int>& columns, const Vec3& n, const Vec3& p,
                   double sign, GradientRow row) {
  Eigen::Matrix<double, 1, 6> weights;
  weights << sign * n.transpose(), sign * p.cross(n).transpose();
  for (const int c : columns) row[c] = weights.dot(axes.row(c));
}

// Row c of `axes`: the world axis [v; w] of dof c (the columns of dynamics::body_jacobian in kWorld,
// computed once for every dof instead of once per kinematic chain).
void world_axes(const model::Model& model, const model::Data& data, WorldAxes& axes) {
  const auto set = [&axes](int c, const spatial::Motion& s) {
    axes.row(c).head<3>() = s.v.transpose();
    axes.row(c).tail<3>() = s.w.transpose();
  };
  for (int j = 0; j < model.nj; ++j) {
    const auto b = static_cast<size_t>(model::Model::body_of_joint(j));
    const Vec3 axis = data.oMi[b].R * model.axes[b];
    if (model.joint_types[b] == model::JointType::kRevolute)
      set(model.idx_v(j), spatial::Motion(data.oMi[b].p.cross(axis), axis));
    else
      set(model.idx_v(j), spatial::Motion(axis, Vec3::Zero()));
  }
  if (model.has_free_flyer()) {
    // The base twist is body 0's twist in its own frame: its unit twists along the base's 6 axes.
    for (int k = 0; k < 6; ++k) {
      spatial::Vec6 e = spatial::Vec6::Zero();
      e[k] = 1.0;
      set(k, data.oMi[0].act(spatial::Motion::from_vector(e)));
    }
  }
}

void corners(const model::Data& data, const CollisionModel& cmodel, CollisionData& cdata, bool gradients) {
  for (size_t k = 0; k < cmodel.corners.size(); ++k) {
    const auto row = static_cast<Eigen::Index>(k);
    cdata.corner_height[row] = corner_height(cmodel.corners[k], data.oMi);
    if (gradients)
      corner_gradient(cmodel.corners[k], data.oMi, cdata.world_axes, cdata.corner_gradient.row(row));
  }
}

}  // namespace

void place_shapes(const CollisionModel& cmodel, const std::vector<SE3>& oMi, PlacedShapes& placed) {
  for (size_t s = 0; s < cmodel.shapes.size(); ++s) {
    const CollisionShape& shape = cmodel.shapes[s];
    const SE3& pose = oMi[static_cast<size_t>(shape.body)];
    placed.bounding_centre[s] = pose.act(shape.bounding_centre);
    if (shape.kind == ShapeKind::kCapsule) {
      placed.a[s] = pose.act(shape.a);
      placed.b[s] = pose.act(shape.b);
    } else {
      placed.box[s] = {pose.R * shape.placement.R, pose.act(shape.placement.p), shape.half};
    }
  }
}

double bounding_gap(const CollisionModel& cmodel, const PlacedShapes& placed, int pair) {
  const CollisionPair& p = cmodel.pairs[static_cast<size_t>(pair)];
  const auto first = static_cast<size_t>(p.first), second = static_cast<size_t>(p.second);
  return (placed.bounding_centre[first] - placed.bounding_centre[second]).norm() -
         cmodel.shapes[first].bounding_radius - cmodel.shapes[second].bounding_radius;
}

Contact pair_distance(const CollisionModel& cmodel, const PlacedShapes& placed, int pair) {
  const CollisionPair& p = cmodel.pairs[static_cast<size_t>(pair)];
  const auto i = static_cast<size_t>(p.first), j = static_cast<size_t>(p.second);
  const CollisionShape& first = cmodel.shapes[i];
  const CollisionShape& second = cmodel.shapes[j];
  const bool first_capsule = first.kind == ShapeKind::kCapsule;
  const bool second_capsule = second.kind == ShapeKind::kCapsule;
  Contact c;
  if (first_capsule && second_capsule) {
    c = segment_segment(placed.a[i], placed.b[i], placed.a[j], placed.b[j]);
  } else if (first_capsule) {
    c = segment_box(placed.a[i], placed.b[i], placed.box[j]);
  } else if (second_capsule) {
    c = flipped(segment_box(placed.a[j], placed.b[j], placed.box[i]));
  } else {
    c = box_box(placed.box[i], placed.box[j]);
  }
  // The capsules' radii move the surfaces along the normal: the witness points
  // go with them.
  const double r1 = first_capsule ? first.radius : 0.0, r2 = second_capsule ? second.radius : 0.0;
  c.distance -= r1 + r2;
  c.on_first -= r1 * c.normal;
  c.on_second += r2 * c.normal;
  return c;
}

void pair_gradient(const CollisionModel& cmodel, int pair, const Contact& contact, const WorldAxes& axes,
                   GradientRow row) {
  const CollisionPair& p = cmodel.pairs[static_cast<size_t>(pair)];
  write_columns(axes, p.first_only, contact.normal, contact.on_first, 1.0, row);
  write_columns(axes, p.second_only, contact.normal, contact.on_second, -1.0, row);
}

double corner_height(const SoleCorner& corner, const std::vector<SE3>& oMi) {
  return oMi[static_cast<size_t>(corner.body)].act(corner.point).z();
}

void corner_gradient(const SoleCorner& corner, const std::vector<SE3>& oMi, const WorldAxes& axes,
                     GradientRow row) {
  const Vec3 p = oMi[static_cast<size_t>(corner.body)].act(corner.point);
  write_columns(axes, corner.columns, Vec3::UnitZ(), p, 1.0, row);
}

void compute_distances(const model::Model& model, model::Data& data, const CollisionModel& cmodel,
                       CollisionData& cdata, const ConfigRef& q) {
  dynamics::forward_kinematics(model, data, q);
  place_shapes(cmodel, data.oMi, cdata.placed);
  for (size_t k = 0; k < cmodel.pairs.size(); ++k) {
    cdata.contacts[k] = pair_distance(cmodel, cdata.placed, static_cast<int>(k));
    cdata.distance[static_cast<Eigen::Index>(k)] = cdata.contacts[k].distance;
  }
  corners(data, cmodel, cdata, false);
}

void compute_distance_gradients(const model::Model& model, model::Data& data, const CollisionModel& cmodel,
                                CollisionData& cdata, const ConfigRef& q) {
  dynamics::forward_kinematics(model, data, q);
  place_shapes(cmodel, data.oMi, cdata.placed);
  world_axes(model, data, cdata.world_axes);
  for (size_t k = 0; k < cmodel.pairs.size(); ++k) {
    const int pair = static_cast<int>(k);
    cdata.contacts[k] = pair_distance(cmodel, cdata.placed, pair);
    cdata.distance[pair] = cdata.contacts[k].distance;
    pair_gradient(cmodel, pair, cdata.contacts[k], cdata.world_axes, cdata.distance_gradient.row(pair));
  }
  corners(data, cmodel, cdata, true);
}

void compute_near_distance_gradients(const model::Model& model, model::Data& data,
                                     const CollisionModel& cmodel, CollisionData& cdata, const ConfigRef& q,
                                     double margin) {
  dynamics::forward_kinematics(model, data, q);
  place_shapes(cmodel, data.oMi, cdata.placed);
  world_axes(model, data, cdata.world_axes);
  cdata.near_count = 0;
  for (size_t k = 0; k < cmodel.pairs.size(); ++k) {
    const int pair = static_cast<int>(k);
    if (bounding_gap(cmodel, cdata.placed, pair) >= margin) continue;
    cdata.near_pairs[cdata.near_count++] = pair;
    cdata.contacts[k] = pair_distance(cmodel, cdata.placed, pair);
    cdata.distance[pair] = cdata.contacts[k].distance;
    pair_gradient(cmodel, pair, cdata.contacts[k], cdata.world_axes, cdata.distance_gradient.row(pair));
  }
  corners(data, cmodel, cdata, true);
}

}  // namespace mimic::geometry
