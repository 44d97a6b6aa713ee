// The support polygon: the convex hull of the sole rectangles of the feet in contact with flat ground,
// projected on the ground plane (x forward, y left). The ZMP of a physically possible motion always lies in
// it; the stabilizer keeps it at least a margin inside.
//
// Everything lives in fixed-size storage (two rectangles give at most 8 hull vertices), so building a
// polygon and querying it never allocates: it is called once per sample in the stabilizer's loop.
#pragma once

#include <Eigen/Core>
#include <array>
#include <span>

#include "mimic/model/contact_phase.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/spatial/se3.hpp"

namespace mimic::stability {

using Vec2 = Eigen::Vector2d;

// The four corners of `outline` on the ground, for the sole frame at `sole_pose` (world), counter-clockwise.
// A tilted sole is projected vertically: the polygon is meant for feet flat on the ground.
std::array<Vec2, 4> ground_corners(const model::SoleRectangle& outline, const spatial::SE3& sole_pose);

// A convex polygon with its vertices in counter-clockwise order. May degenerate to a segment or a point
// (collinear input), in which case nothing is strictly inside it.
class SupportPolygon {
 public:
  static constexpr int kMaxVertices = 16;

  SupportPolygon() = default;

  // Convex hull of up to kMaxVertices points (Andrew's monotone chain). Throws std::invalid_argument for
  // an empty or too large input.
  static SupportPolygon hull(std::span<const Vec2> points);
  // The support polygon of the feet in contact, for the given sole poses (world) and outlines.
  static SupportPolygon of_feet(model::ContactPhase contact, const spatial::SE3& right_sole,
                                const spatial::SE3& left_sole, const model::SoleRectangle& right_outline,
                                const model::SoleRectangle& left_outline);

  int size() const { return count_; }
  const Vec2& vertex(int i) const { return vertices_[static_cast<std::size_t>(i)]; }
  double area() const;

  // Distance from p to the boundary: positive inside, negative outside (minus the Euclidean distance to
  // the polygon), zero on the boundary.
  double signed_distance(const Vec2& p) const;
  bool contains(const Vec2& p, double margin = 0.0) const { return signed_distance(p) >= margin; }

  // The point of the polygon eroded by `margin` (the set of points at least `margin` inside) closest to p;
  // p itself when it is already that deep. Throws InfeasibleError when the polygon is too small to keep a
  // point `margin` away from every edge.
  Vec2 clamp(const Vec2& p, double margin) const;

 private:
  std::array<Vec2, kMaxVertices> vertices_{};
  int count_ = 0;
};

}  // namespace mimic::stability
