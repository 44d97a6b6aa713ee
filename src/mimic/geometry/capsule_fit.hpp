// A capsule that contains a point set (a link's collision mesh, mesh.hpp): the collision model's stand-in
// for a <collision> mesh (collision_model.hpp), conservative in the direction that matters for a check of
// self-collision: every vertex of the mesh is inside the capsule, so a pair of capsules apart means the
// meshes' vertices are apart (the capsule of a convex mesh contains the whole mesh: a capsule is convex).
//
// Fit (for each of the three principal axes of the vertex covariance, keeping the smallest volume):
//  1. the radius: the capsule's line is parallel to the axis, through the centre of the smallest circle
//     holding the vertices projected on the plane normal to it (Welzl's algorithm); the radius R is that
//     circle's. Every vertex is then within R of the line;
//  2. the segment: its ends are pulled in as far as containment allows. A vertex at axial position t and
//     distance r <= R from the line lies in the capsule iff t is within sqrt(R^2 - r^2) of the segment,
//     so the upper end is max_i (t_i - sqrt(R^2 - r_i^2)) and the lower end min_i (t_i + sqrt(...)).
//     When they cross (a round blob), the capsule is the sphere about their midpoint holding every vertex.
// The radius is finally the largest distance of a vertex to the segment, so containment holds to rounding.
#pragma once

#include <Eigen/Core>

#include "mimic/spatial/types.hpp"

namespace mimic::geometry {

struct Capsule {
  spatial::Vec3 a = spatial::Vec3::Zero(), b = spatial::Vec3::Zero();  // segment ends
  double radius = 0.0;

  double volume() const;  // pi R^2 |b - a| + 4/3 pi R^3
};

// The capsule of `points` (3 x N, N >= 1), as above. Deterministic (no random order).
Capsule fit_capsule(const Eigen::Matrix3Xd& points);

// The distance of `point` to the capsule's segment (<= radius: inside).
double distance_to_segment(const Capsule& capsule, const spatial::Vec3& point);

}  // namespace mimic::geometry
