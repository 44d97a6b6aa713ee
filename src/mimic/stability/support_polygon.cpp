#include "mimic/stability/support_polygon.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "mimic/core/error.hpp"

namespace mimic::stability {
namespace {

// z of (b - a) × (c - a): > 0 when a, b, c turn counter-clockwise.
double turn(const Vec2& a, const Vec2& b, const Vec2& c) {
  return (b.x() - a.x()) * (c.y() - a.y()) - (b.y() - a.y()) * (c.x() - a.x());
}

Vec2 closest_on_segment(const Vec2& a, const Vec2& b, const Vec2& p) {
  const Vec2 ab = b - a;
  const double len2 = ab.squaredNorm();
  if (len2 == 0.0) return a;
  const double t = std::clamp((p - a).dot(ab) / len2, 0.0, 1.0);
  return a + t * ab;
}

// Closest point to p on the closed polyline through vertices[0..n) (a point, a segment or a polygon's
// boundary).
template <typename Vertices>
Vec2 closest_on_boundary(const Vertices& vertices, int n, const Vec2& p) {
  Vec2 best = vertices[0];
  double best_d2 = (p - best).squaredNorm();
  for (int i = 0; i < n; ++i) {
    const Vec2 c = closest_on_segment(vertices[static_cast<std::size_t>(i)],
                                      vertices[static_cast<std::size_t>((i + 1) % n)], p);
    const double d2 = (p - c).squaredNorm();
    if (d2 < best_d2) {
      best_d2 = d2;
      best = c;
    }
  }
  return best;
}

// Inward unit normal of the edge a -> b of a counter-clockwise polygon.
Vec2 inward_normal(const Vec2& a, const Vec2& b) {
  const Vec2 e = (b - a).normalized();
  return Vec2(-e.y(), e.x());
}

}  // namespace

std::array<Vec2, 4> ground_corners(const model::SoleRectangle& outline, const spatial::SE3& sole_pose) {
  const auto corner = [&](double x, double y) -> Vec2 {
    return sole_pose.act(spatial::Vec3(x, y, 0.0)).head<2>();
  };
  return {corner(outline.x_min, outline.y_min), corner(outline.x_max, outline.y_min),
          corner(outline.x_max, outline.y_max), corner(outline.x_min, outline.y_max)};
}

SupportPolygon SupportPolygon::hull(std::span<const Vec2> points) {
  if (points.empty() || points.size() > static_cast<std::size_t>(kMaxVertices))
    throw std::invalid_argument("SupportPolygon::hull: needs 1 to " + std::to_string(kMaxVertices) +
                                " points, got " + std::to_string(points.size()));
  std::array<Vec2, kMaxVertices> sorted{};
  const int n = static_cast<int>(points.size());
  std::copy(points.begin(), points.end(), sorted.begin());
  std::sort(sorted.begin(), sorted.begin() + n,
            [](const Vec2& a, const Vec2& b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });

  // Monotone chain; `<= 0` drops collinear and repeated points, so the hull has no redundant vertex.
  std::array<Vec2, 2 * kMaxVertices> chain{};
  int k = 0;
  for (int i = 0; i < n; ++i) {  // lower hull
    while (k >= 2 && turn(chain[k - 2], chain[k - 1], sorted[i]) <= 0.0) --k;
    chain[k++] = sorted[i];
  }
  for (int i = n - 2, lower = k + 1; i >= 0; --i) {  // upper hull
    while (k >= lower && turn(chain[k - 2], chain[k - 1], sorted[i]) <= 0.0) --k;
    chain[k++] = sorted[i];
  }
  SupportPolygon polygon;
  // The chain ends where it started; a single (possibly repeated) point gives k == 1 or 2 equal points.
  polygon.count_ = std::max(1, k - 1);
  if (polygon.count_ == 2 && chain[0] == chain[1]) polygon.count_ = 1;
  std::copy(chain.begin(), chain.begin() + polygon.count_, polygon.vertices_.begin());
  return polygon;
}

SupportPolygon SupportPolygon::of_feet(model::ContactPhase contact, const spatial::SE3& right_sole,
                                       const spatial::SE3& left_sole,
                                       const model::SoleRectangle& right_outline,
                                       const model::SoleRectangle& left_outline) {
  std::array<Vec2, 8> corners{};
  std::size_t n = 0;
  if (model::right_foot_in_contact(contact))
    for (const Vec2& c : ground_corners(right_outline, right_sole)) corners[n++] = c;
  if (model::left_foot_in_contact(contact))
    for (const Vec2& c : ground_corners(left_outline, left_sole)) corners[n++] = c;
  return hull(std::span<const Vec2>(corners.data(), n));
}

double SupportPolygon::area() const {
  double twice = 0.0;
  for (int i = 0; i < count_; ++i) {
    const Vec2& a = vertex(i);
    const Vec2& b = vertex((i + 1) % count_);
    twice += a.x() * b.y() - a.y() * b.x();
  }
  return 0.5 * twice;
}

double SupportPolygon::signed_distance(const Vec2& p) const {
  if (count_ == 0) throw std::logic_error("SupportPolygon::signed_distance on an empty polygon");
  if (count_ >= 3) {
    double depth = std::numeric_limits<double>::infinity();
    for (int i = 0; i < count_; ++i) {
      const Vec2& a = vertex(i);
      depth = std::min(depth, inward_normal(a, vertex((i + 1) % count_)).dot(p - a));
    }
    // Inside a convex polygon the nearest boundary point lies on the nearest edge line.
    if (depth >= 0.0) return depth;
  }
  return -(p - closest_on_boundary(vertices_, count_, p)).norm();
}

Vec2 SupportPolygon::clamp(const Vec2& p, double margin) const {
  if (count_ == 0) throw std::logic_error("SupportPolygon::clamp on an empty polygon");
  if (margin < 0.0) throw std::invalid_argument("SupportPolygon::clamp: negative margin");
  if (count_ < 3) {
    if (margin > 0.0)
      throw InfeasibleError("support polygon is degenerate (a segment or a point): no point lies " +
                            std::to_string(margin) + " m inside it");
    return closest_on_boundary(vertices_, count_, p);
  }
  if (signed_distance(p) >= margin) return p;

  // Erode: clip the polygon by each edge's half-plane moved inward by the margin (Sutherland-Hodgman;
  // clipping a convex polygon by a half-plane adds at most one vertex, hence the doubled capacity).
  std::array<Vec2, 2 * kMaxVertices + 2> eroded{};
  std::array<Vec2, 2 * kMaxVertices + 2> clipped{};
  std::copy(vertices_.begin(), vertices_.begin() + count_, eroded.begin());
  int n = count_;
  for (int e = 0; e < count_ && n > 0; ++e) {
    const Vec2& a = vertex(e);
    const Vec2 normal = inward_normal(a, vertex((e + 1) % count_));
    const double offset = normal.dot(a) + margin;
    int m = 0;
    for (int i = 0; i < n; ++i) {
      const Vec2& u = eroded[static_cast<std::size_t>(i)];
      const Vec2& w = eroded[static_cast<std::size_t>((i + 1) % n)];
      const double du = normal.dot(u) - offset;
      const double dw = normal.dot(w) - offset;
      if (du >= 0.0) clipped[static_cast<std::size_t>(m++)] = u;
      if ((du >= 0.0) != (dw >= 0.0)) clipped[static_cast<std::size_t>(m++)] = u + (du / (du - dw)) * (w - u);
    }
    n = m;
    std::copy(clipped.begin(), clipped.begin() + n, eroded.begin());
  }
  if (n == 0)
    throw InfeasibleError("support polygon too small: no point lies " + std::to_string(margin) +
                          " m inside it");
  return closest_on_boundary(eroded, n, p);
}

}  // namespace mimic::stability
