// Closest points between a segment and a segment, a segment and an oriented box, and two oriented boxes:
// the geometric core of the capsule-capsule, capsule-box and box-box distances of distances.hpp. All
// quantities are in one frame (the world, in practice), in metres. No allocation.
//
// Each function returns a Contact: the (signed) distance, a witness point on each set and the unit normal
// n pointing from the second set to the first. n is the gradient of the distance with respect to a
// translation of the first set (and -n for the second), which is what the q-gradients of distances.hpp are
// built from. The witness points may not be unique (parallel segments, a segment parallel to a face):
// any closest pair then gives the same distance and a valid (sub-)gradient, because the distance is the
// minimum over the pairs of points and, by Danskin's theorem, the gradient of a minimum is the gradient at
// any minimiser when the minimum is smooth, and a Clarke sub-gradient where it is not.
#pragma once

#include "mimic/spatial/types.hpp"

namespace mimic::geometry {

using spatial::Mat3;
using spatial::Vec3;

struct Contact {
  double distance = 0.0;          // >= 0 apart; < 0 inside (boxes: depth along the normal)
  Vec3 on_first = Vec3::Zero();   // witness point on the first set
  Vec3 on_second = Vec3::Zero();  // witness point on the second set
  Vec3 normal = Vec3::UnitZ();    // unit, from the second set to the first
};

// An oriented box: centre, axes (columns of R) and half edge lengths along them.
struct OrientedBox {
  Mat3 R = Mat3::Identity();
  Vec3 centre = Vec3::Zero();
  Vec3 half = Vec3::Zero();
};

// Segments [a1, b1] and [a2, b2] (either may have zero length). distance = |on_first - on_second| >= 0.
// When the segments cross (distance 0) the normal is that of the plane of both directions, or any unit
// vector perpendicular to the first when they are parallel: every unit vector is then a sub-gradient of
// the norm at 0, and one perpendicular to the axes is the direction in which capsules separate.
Contact segment_segment(const Vec3& a1, const Vec3& b1, const Vec3& a2, const Vec3& b2);

// Segment [a, b] and a box. Apart: the distance, on_second the closest point of the box's surface.
// Reaching it: minus the penetration depth (the shortest translation that separates them, by the
// separating axis theorem over the box's face normals and the cross products of its edges with the
// segment), the normal that translation's direction, on_first the segment's point deepest along it and
// on_second the point of the box's face or edge behind it (on_first - on_second = distance x normal). Its
// gradient is the normal's wrench at the witness points, also where the segment pierces the box through
// two opposite faces (where the depth of the segment's deepest point, constant, has none).
Contact segment_box(const Vec3& a, const Vec3& b, const OrientedBox& box);

// Two boxes. For separated boxes the closest points of two convex polyhedra include a point on an edge of
// one of them, so the minimum of segment_box over the 12 edges of each against the other is the distance.
// For intersecting boxes some edge of one reaches into the other, so the result is negative, and its
// magnitude is the largest penetration depth of an edge (a lower bound of the boxes' penetration depth:
// moving a box out moves its edges out; enough for a check and for a constraint that pushes them apart).
// Edges that cannot beat the best distance found are skipped by a per-edge lower bound; the result is that of
// the exhaustive search (the earliest edge wins among equal distances). With parallel faces the closest
// points are not unique: the distance is the same for any choice, and the witness points, hence the gradient
// rows built on them, are the tie-break's (a sub-gradient; they differ from another choice only on that
// measure-zero set of poses).
Contact box_box(const OrientedBox& first, const OrientedBox& second);

}  // namespace mimic::geometry
