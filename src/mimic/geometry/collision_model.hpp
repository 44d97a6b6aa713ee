// The collision model of a robot (Pinocchio's GeometryModel, reduced to what mimic checks): capsules and
// boxes rigidly attached to bodies, the pairs of shapes whose distance is checked, and the corners of the
// sole rectangles whose height above the ground (z = 0) is checked. Built once from the URDF's <collision>
// elements and the robot description (docs/robot-description.md, "Collision model"); immutable after.
//
// Shapes come from the URDF: a <cylinder> is read as the capsule inscribed in it (radius r, a segment of
// length (length - 2 r) along the cylinder's z axis), a <sphere> as a capsule of zero length, a <box> as a
// box, a <mesh> as the capsule fitted to its vertices (capsule_fit.hpp: it contains them; the file found
// by mesh_path.hpp, read by mesh.hpp). A link named in the description's collision.shapes takes the
// shapes given there instead of its URDF ones. A cylinder shorter than its diameter, or a mesh file that
// cannot be read, is a ModelError naming the link or the file.
//
// Pairs: every two shapes on different bodies, except the adjacent ones and the description's
// collision.exclude. Two bodies are adjacent when one is the other's nearest ancestor that carries a shape
// (HRP-2: a thigh and the waist, through the shapeless hip-yaw and hip-roll links): neighbouring shapes
// overlap at the joint that connects them by construction, so their distance says nothing.
#pragma once

#include <string>
#include <vector>

#include "mimic/geometry/closest_points.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/spatial/se3.hpp"

namespace mimic::geometry {

enum class ShapeKind { kCapsule, kBox };

struct CollisionShape {
  std::string link;  // URDF link it was given for (named in reports)
  int body = 0;      // Model body it moves with
  ShapeKind kind = ShapeKind::kCapsule;
  // Capsule: segment ends and radius in the body frame. Box: placement of its centre and axes in the body
  // frame, and half edge lengths.
  Vec3 a = Vec3::Zero(), b = Vec3::Zero();
  double radius = 0.0;
  spatial::SE3 placement;
  Vec3 half = Vec3::Zero();
  // The smallest sphere about the shape's centre that holds it (body frame): the screening of far pairs.
  Vec3 bounding_centre = Vec3::Zero();
  double bounding_radius = 0.0;
};

// Consecutive velocity columns [start, start + size): the gradients of distances.hpp are written one run
// at a time, each a few contiguous rows of the dofs' axes (a kinematic chain's dofs are numbered in a row,
// so a shape's supporting columns form a handful of runs: the free flyer's, the trunk's, the limb's).
struct ColumnRange {
  int start = 0, size = 0;
};

// The runs of sorted, distinct columns (ranges_of({0, 1, 2, 7, 8}) = {[0, 3), [7, 9)}).
std::vector<ColumnRange> ranges_of(const std::vector<int>& columns);

// Which closest-point routine of closest_points.hpp a pair takes (first shape's kind, then second's):
// fixed at model build, so the per-pair dispatch reads one field instead of both shapes.
enum class PairKind { kCapsuleCapsule, kCapsuleBox, kBoxCapsule, kBoxBox };

struct CollisionPair {
  int first = 0, second = 0;  // shape indices, first < second
  PairKind kind = PairKind::kCapsuleCapsule;
  // The shapes' radii (a box's is 0): the closest points of the segments (boxes) move out by them.
  double first_radius = 0.0, second_radius = 0.0;
  // The velocity columns (tangent space of q) that move one shape and not the other: the distance's
  // gradient is zero elsewhere (a dof that moves both moves them rigidly together). The same as runs.
  std::vector<int> first_only, second_only;
  std::vector<ColumnRange> first_ranges, second_ranges;
};

// A corner of a sole rectangle, on the sole frame's plane.
struct SoleCorner {
  std::string foot;  // "right" or "left"
  int body = 0;
  Vec3 point = Vec3::Zero();        // in the body frame
  std::vector<int> columns;         // the velocity columns that move the body
  std::vector<ColumnRange> ranges;  // the same as runs
};

struct CollisionModel {
  std::vector<CollisionShape> shapes;
  std::vector<CollisionPair> pairs;
  std::vector<SoleCorner> corners;

  // "RARM_LINK6 / HEAD_LINK1"
  std::string pair_name(int pair) const;
};

// Reads the shapes of description.urdf, applies description.collision, and lists the pairs and the sole
// corners (description.soles in description.frames.{right,left}_sole). `model` must be loaded from the same
// URDF. Throws ModelError naming the URDF link or the description for an unsupported or bad shape, and for
// an excluded pair whose link carries no shape.
CollisionModel build_collision_model(const model::Model& model, const model::RobotDescription& description);

// An upper bound of the distance between any two points of the robot's shapes, in any configuration
// (m): the tree's joint offsets and prismatic strokes laid end to end, plus the two largest shape reaches
// from their bodies' origins. Bounds every pair distance (terms/self_collision.hpp).
double robot_span(const model::Model& model, const CollisionModel& cmodel);

}  // namespace mimic::geometry
