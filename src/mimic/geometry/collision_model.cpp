#include "mimic/geometry/collision_model.hpp"

#include <urdf_model/model.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "mimic/core/error.hpp"
#include "mimic/geometry/capsule_fit.hpp"
#include "mimic/geometry/mesh.hpp"
#include "mimic/geometry/mesh_path.hpp"

namespace mimic::geometry {
namespace {

using model::CollisionShapeSpec;
using model::Model;
using spatial::SE3;

[[noreturn]] void fail(const std::string& file, const std::string& place, const std::string& what) {
  throw ModelError(input_error_message(file, place, what));
}

SE3 to_se3(const urdf::Pose& pose) {
  const spatial::Quat q(pose.rotation.w, pose.rotation.x, pose.rotation.y, pose.rotation.z);
  return SE3(q.normalized().toRotationMatrix(), Vec3(pose.position.x, pose.position.y, pose.position.z));
}

// The shape of a URDF <collision> element, placed in the body of `link` (frame `in_body`); a mesh's file
// is found by geometry/mesh_path.hpp's rule (`mesh_root`: the description's key).
CollisionShape from_urdf(const std::string& urdf_path, const std::string& mesh_root, const std::string& link,
                         int body, const SE3& in_body, const urdf::Collision& collision) {
  CollisionShape shape;
  shape.link = link;
  shape.body = body;
  const SE3 placement = in_body * to_se3(collision.origin);
  const std::string where = "link " + link + ": <collision>";
  if (!collision.geometry) fail(urdf_path, where, "a <collision> without geometry");
  switch (collision.geometry->type) {
    case urdf::Geometry::CYLINDER: {
      const auto& cylinder = static_cast<const urdf::Cylinder&>(*collision.geometry);
      if (!(cylinder.radius > 0.0) || cylinder.length < 2.0 * cylinder.radius)
        fail(urdf_path, where,
             "a <cylinder> is read as its inscribed capsule and needs radius > 0 and length >= 2 radius "
             "(found radius " +
                 std::to_string(cylinder.radius) + ", length " + std::to_string(cylinder.length) + ")");
      const Vec3 half_segment = placement.R.col(2) * (0.5 * cylinder.length - cylinder.radius);
      shape.kind = ShapeKind::kCapsule;
      shape.a = placement.p + half_segment;
      shape.b = placement.p - half_segment;
      shape.radius = cylinder.radius;
      return shape;
    }
    case urdf::Geometry::SPHERE: {
      const double radius = static_cast<const urdf::Sphere&>(*collision.geometry).radius;
      if (!(radius > 0.0)) fail(urdf_path, where, "a <sphere> needs a radius > 0");
      shape.kind = ShapeKind::kCapsule;
      shape.a = shape.b = placement.p;
      shape.radius = radius;
      return shape;
    }
    case urdf::Geometry::BOX: {
      const urdf::Vector3& dim = static_cast<const urdf::Box&>(*collision.geometry).dim;
      shape.kind = ShapeKind::kBox;
      shape.placement = placement;
      shape.half = 0.5 * Vec3(dim.x, dim.y, dim.z);
      if (!(shape.half.minCoeff() > 0.0)) fail(urdf_path, where, "a <box> needs sizes > 0");
      return shape;
    }
    case urdf::Geometry::MESH: {
      // The capsule holding every vertex of the mesh (capsule_fit.hpp), in the body frame.
      const auto& mesh = static_cast<const urdf::Mesh&>(*collision.geometry);
      const std::string file = resolve_mesh_path(mesh.filename, urdf_path, mesh_root);
      Mesh vertices;
      try {
        vertices = read_mesh(file, Vec3(mesh.scale.x, mesh.scale.y, mesh.scale.z), placement);
      } catch (const ModelError& e) {
        // Name the link as every other shape error does; the message of read_mesh names the file.
        fail(urdf_path, where, "<mesh filename=\"" + mesh.filename + "\">: " + e.what());
      }
      const Capsule capsule = fit_capsule(vertices.vertices);
      shape.kind = ShapeKind::kCapsule;
      shape.a = capsule.a;
      shape.b = capsule.b;
      shape.radius = capsule.radius;
      return shape;
    }
    default:
      fail(urdf_path, where, "an unknown <geometry>");
  }
}

CollisionShape from_spec(const Model& model, const CollisionShapeSpec& spec) {
  const model::Frame& frame = model.frames[static_cast<size_t>(model.frame_index(spec.link))];
  CollisionShape shape;
  shape.link = spec.link;
  shape.body = frame.body;
  if (spec.kind == CollisionShapeSpec::Kind::kCapsule) {
    shape.kind = ShapeKind::kCapsule;
    shape.a = frame.placement.act(spec.a);
    shape.b = frame.placement.act(spec.b);
    shape.radius = spec.radius;
  } else {
    shape.kind = ShapeKind::kBox;
    shape.placement = frame.placement * SE3(spatial::Mat3::Identity(), spec.centre);
    shape.half = 0.5 * spec.size;
  }
  return shape;
}

// The velocity columns that move body b: the free-flyer's six and every joint on the path to the root.
std::vector<int> supporting_columns(const Model& model, int body) {
  std::vector<int> columns;
  for (int b = body; b > 0; b = model.parents[static_cast<size_t>(b)])
    columns.push_back(model.idx_v(Model::joint_of_body(b)));
  if (model.has_free_flyer())
    for (int c = 0; c < 6; ++c) columns.push_back(c);
  std::sort(columns.begin(), columns.end());
  return columns;
}

}  // namespace

std::vector<ColumnRange> ranges_of(const std::vector<int>& columns) {
  std::vector<ColumnRange> ranges;
  for (const int c : columns) {
    if (!ranges.empty() && ranges.back().start + ranges.back().size == c)
      ++ranges.back().size;
    else
      ranges.push_back({c, 1});
  }
  return ranges;
}

std::string CollisionModel::pair_name(int pair) const {
  const CollisionPair& p = pairs[static_cast<size_t>(pair)];
  return shapes[static_cast<size_t>(p.first)].link + " / " + shapes[static_cast<size_t>(p.second)].link;
}

CollisionModel build_collision_model(const Model& model, const model::RobotDescription& description) {
  CollisionModel cmodel;
  const urdf::ModelInterfaceSharedPtr urdf = urdf::parseURDFFile(description.urdf);
  if (!urdf) fail(description.urdf, "", "not a valid URDF (urdfdom could not parse it)");

  std::set<std::string> replaced;
  for (const auto& spec : description.collision.shapes) replaced.insert(spec.link);
  std::vector<urdf::LinkSharedPtr> links;
  urdf->getLinks(links);
  // Model frames are in URDF depth-first order; keep that order for the shapes (stable pair names).
  for (const model::Frame& frame : model.frames) {
    if (replaced.count(frame.name)) continue;
    const urdf::LinkConstSharedPtr link = urdf->getLink(frame.name);
    if (!link) continue;
    for (const auto& collision : link->collision_array)
      if (collision)
        cmodel.shapes.push_back(from_urdf(description.urdf, description.mesh_root, frame.name, frame.body,
                                          frame.placement, *collision));
  }
  for (const auto& spec : description.collision.shapes) cmodel.shapes.push_back(from_spec(model, spec));
  for (auto& shape : cmodel.shapes) {
    const bool capsule = shape.kind == ShapeKind::kCapsule;
    shape.bounding_centre = capsule ? Vec3(0.5 * (shape.a + shape.b)) : shape.placement.p;
    shape.bounding_radius = capsule ? 0.5 * (shape.b - shape.a).norm() + shape.radius : shape.half.norm();
  }

  // Adjacency: the nearest ancestor of a body that carries a shape.
  std::vector<bool> has_shape(static_cast<size_t>(model.nbodies), false);
  for (const auto& shape : cmodel.shapes) has_shape[static_cast<size_t>(shape.body)] = true;
  const auto shape_parent = [&](int body) {
    for (int b = model.parents[static_cast<size_t>(body)]; b >= 0; b = model.parents[static_cast<size_t>(b)])
      if (has_shape[static_cast<size_t>(b)]) return b;
    return -1;
  };
  std::set<std::pair<int, int>> excluded;  // body pairs, smaller first
  for (const auto& [l1, l2] : description.collision.exclude) {
    const int b1 = model.frames[static_cast<size_t>(model.frame_index(l1))].body;
    const int b2 = model.frames[static_cast<size_t>(model.frame_index(l2))].body;
    for (const auto& [link, body] : {std::pair{l1, b1}, std::pair{l2, b2}})
      if (!has_shape[static_cast<size_t>(body)])
        fail(description.source_path, "collision.exclude",
             "link '" + link + "' carries no collision shape (nothing to exclude)");
    excluded.emplace(std::min(b1, b2), std::max(b1, b2));
  }

  std::vector<std::vector<int>> columns(static_cast<size_t>(model.nbodies));
  for (int b = 0; b < model.nbodies; ++b) columns[static_cast<size_t>(b)] = supporting_columns(model, b);
  const int nshapes = static_cast<int>(cmodel.shapes.size());
  for (int i = 0; i < nshapes; ++i) {
    for (int j = i + 1; j < nshapes; ++j) {
      const int bi = cmodel.shapes[static_cast<size_t>(i)].body,
                bj = cmodel.shapes[static_cast<size_t>(j)].body;
      if (bi == bj || shape_parent(bi) == bj || shape_parent(bj) == bi) continue;
      if (excluded.count({std::min(bi, bj), std::max(bi, bj)})) continue;
      const CollisionShape& si = cmodel.shapes[static_cast<size_t>(i)];
      const CollisionShape& sj = cmodel.shapes[static_cast<size_t>(j)];
      const bool ci_capsule = si.kind == ShapeKind::kCapsule, cj_capsule = sj.kind == ShapeKind::kCapsule;
      CollisionPair pair;
      pair.first = i, pair.second = j;
      pair.kind = ci_capsule ? (cj_capsule ? PairKind::kCapsuleCapsule : PairKind::kCapsuleBox)
                             : (cj_capsule ? PairKind::kBoxCapsule : PairKind::kBoxBox);
      pair.first_radius = ci_capsule ? si.radius : 0.0;
      pair.second_radius = cj_capsule ? sj.radius : 0.0;
      const auto& ci = columns[static_cast<size_t>(bi)];
      const auto& cj = columns[static_cast<size_t>(bj)];
      std::set_difference(ci.begin(), ci.end(), cj.begin(), cj.end(), std::back_inserter(pair.first_only));
      std::set_difference(cj.begin(), cj.end(), ci.begin(), ci.end(), std::back_inserter(pair.second_only));
      pair.first_ranges = ranges_of(pair.first_only);
      pair.second_ranges = ranges_of(pair.second_only);
      cmodel.pairs.push_back(std::move(pair));
    }
  }

  const auto add_corners = [&](const std::string& foot, const std::string& frame_name,
                               const model::SoleRectangle& sole) {
    const model::Frame& frame = model.frames[static_cast<size_t>(model.frame_index(frame_name))];
    for (const double x : {sole.x_min, sole.x_max})
      for (const double y : {sole.y_min, sole.y_max})
        cmodel.corners.push_back({foot, frame.body, frame.placement.act(Vec3(x, y, 0.0)),
                                  columns[static_cast<size_t>(frame.body)],
                                  ranges_of(columns[static_cast<size_t>(frame.body)])});
  };
  add_corners("right", description.frames.right_sole, description.right_sole);
  add_corners("left", description.frames.left_sole, description.left_sole);

  return cmodel;
}

double robot_span(const Model& model, const CollisionModel& cmodel) {
  double chain = 0.0;
  for (int b = 1; b < model.nbodies; ++b) {
    chain += model.joint_placements[static_cast<size_t>(b)].p.norm();
    if (model.joint_types[static_cast<size_t>(b)] == model::JointType::kPrismatic) {
      const int j = Model::joint_of_body(b);
      chain += std::max(std::abs(model.lower_limit[j]), std::abs(model.upper_limit[j]));
    }
  }
  double first = 0.0, second = 0.0;  // the two largest reaches
  for (const auto& shape : cmodel.shapes) {
    const double reach = shape.bounding_centre.norm() + shape.bounding_radius;
    if (reach > first)
      second = first, first = reach;
    else if (reach > second)
      second = reach;
  }
  return chain + first + second;
}

}  // namespace mimic::geometry
