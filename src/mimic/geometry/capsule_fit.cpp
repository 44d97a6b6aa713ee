#include "mimic/geometry/capsule_fit.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <vector>

namespace mimic::geometry {
namespace {

using spatial::Vec3;
using Vec2 = Eigen::Vector2d;

struct Circle {
  Vec2 centre = Vec2::Zero();
  double radius = -1.0;  // empty
  bool holds(const Vec2& p) const { return (p - centre).norm() <= radius * (1.0 + 1e-12) + 1e-15; }
};

Circle circle_of(const Vec2& a, const Vec2& b) { return {0.5 * (a + b), 0.5 * (a - b).norm()}; }

Circle circle_of(const Vec2& a, const Vec2& b, const Vec2& c) {
  const Vec2 ab = b - a, ac = c - a;
  const double d = 2.0 * (ab.x() * ac.y() - ab.y() * ac.x());
  if (std::abs(d) < 1e-300) {  // collinear: the circle of the two farthest apart
    Circle best = circle_of(a, b);
    for (const Circle& c2 : {circle_of(a, c), circle_of(b, c)})
      if (c2.radius > best.radius) best = c2;
    return best;
  }
  const Vec2 u((ac.y() * ab.squaredNorm() - ab.y() * ac.squaredNorm()) / d,
               (ab.x() * ac.squaredNorm() - ac.x() * ab.squaredNorm()) / d);
  return {a + u, u.norm()};
}

// The smallest circle holding `points` (Welzl, iterative form; expected linear time on shuffled input, the
// points are shuffled with a fixed seed so that the fit is deterministic).
Circle smallest_circle(std::vector<Vec2> points) {
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  for (std::size_t i = points.size(); i > 1; --i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    std::swap(points[i - 1], points[(state >> 33) % i]);
  }
  Circle c{points[0], 0.0};
  for (std::size_t i = 1; i < points.size(); ++i) {
    if (c.holds(points[i])) continue;
    c = {points[i], 0.0};
    for (std::size_t j = 0; j < i; ++j) {
      if (c.holds(points[j])) continue;
      c = circle_of(points[i], points[j]);
      for (std::size_t k = 0; k < j; ++k)
        if (!c.holds(points[k])) c = circle_of(points[i], points[j], points[k]);
    }
  }
  return c;
}

// The capsule along unit axis `u` (with `v`, `w` completing an orthonormal basis).
Capsule capsule_along(const Eigen::Matrix3Xd& points, const Vec3& u, const Vec3& v, const Vec3& w) {
  const Eigen::Index n = points.cols();
  std::vector<Vec2> projected(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i)
    projected[static_cast<std::size_t>(i)] = Vec2(v.dot(points.col(i)), w.dot(points.col(i)));
  const Circle circle = smallest_circle(projected);
  const Vec3 origin = circle.centre.x() * v + circle.centre.y() * w;  // a point of the line
  double radius = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const Vec3 d = points.col(i) - origin;
    radius = std::max(radius, (d - d.dot(u) * u).norm());
  }
  double upper = -std::numeric_limits<double>::infinity(), lower = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < n; ++i) {
    const Vec3 d = points.col(i) - origin;
    const double t = d.dot(u);
    const double reach = std::sqrt(std::max(0.0, radius * radius - (d - t * u).squaredNorm()));
    upper = std::max(upper, t - reach);
    lower = std::min(lower, t + reach);
  }
  Capsule capsule;
  if (lower > upper) lower = upper = 0.5 * (lower + upper);
  capsule.a = origin + lower * u;
  capsule.b = origin + upper * u;
  // The exact radius of this segment: containment by construction, whatever the rounding above.
  capsule.radius = 0.0;
  for (Eigen::Index i = 0; i < n; ++i)
    capsule.radius = std::max(capsule.radius, distance_to_segment(capsule, points.col(i)));
  return capsule;
}

}  // namespace

double Capsule::volume() const {
  constexpr double pi = std::numbers::pi;
  return pi * radius * radius * (b - a).norm() + 4.0 / 3.0 * pi * radius * radius * radius;
}

double distance_to_segment(const Capsule& capsule, const Vec3& point) {
  const Vec3 ab = capsule.b - capsule.a;
  const double length2 = ab.squaredNorm();
  const double s = length2 > 0.0 ? std::clamp((point - capsule.a).dot(ab) / length2, 0.0, 1.0) : 0.0;
  return (point - (capsule.a + s * ab)).norm();
}

Capsule fit_capsule(const Eigen::Matrix3Xd& points) {
  const Vec3 mean = points.rowwise().mean();
  const Eigen::Matrix3Xd centred = points.colwise() - mean;
  const Eigen::SelfAdjointEigenSolver<spatial::Mat3> eigen(centred * centred.transpose());
  Capsule best;
  double best_volume = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 3; ++k) {
    const Vec3 u = eigen.eigenvectors().col(k).normalized();
    const Vec3 v = eigen.eigenvectors().col((k + 1) % 3).normalized();
    const Vec3 w = u.cross(v).normalized();
    Capsule capsule = capsule_along(centred, u, v, w);
    capsule.a += mean;
    capsule.b += mean;
    if (capsule.volume() < best_volume) {
      best_volume = capsule.volume();
      best = capsule;
    }
  }
  // Containment is checked on the points as given (the shift by the mean rounds).
  best.radius = 0.0;
  for (Eigen::Index i = 0; i < points.cols(); ++i)
    best.radius = std::max(best.radius, distance_to_segment(best, points.col(i)));
  return best;
}

}  // namespace mimic::geometry
