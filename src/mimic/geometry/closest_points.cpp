#include "mimic/geometry/closest_points.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace mimic::geometry {
namespace {

// Below this squared length a direction is treated as zero (segments of 1e-9 m and shorter are points).
constexpr double kTinySquared = 1.0e-18;

// A unit vector perpendicular to v (v != 0), or e_z when v = 0.
Vec3 any_perpendicular(const Vec3& v) {
  if (v.squaredNorm() < kTinySquared) return Vec3::UnitZ();
  const Vec3 helper = std::abs(v.x()) < 0.9 * v.norm() ? Vec3::UnitX() : Vec3::UnitY();
  return v.cross(helper).normalized();
}

}  // namespace

Contact segment_segment(const Vec3& a1, const Vec3& b1, const Vec3& a2, const Vec3& b2) {
  // Ericson, Real-Time Collision Detection, 5.1.9: minimise |a1 + s d1 - a2 - t d2|^2 over [0,1]^2.
  const Vec3 d1 = b1 - a1, d2 = b2 - a2, r = a1 - a2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s = 0.0, t = 0.0;
  if (a < kTinySquared && e < kTinySquared) {
    // two points
  } else if (a < kTinySquared) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e < kTinySquared) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2), denom = a * e - b * b;
      // Parallel segments (denom = 0) have a set of closest pairs: s = 0 picks one of them.
      s = denom > kTinySquared * a * e ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1.0) {
        t = 1.0;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  Contact contact;
  contact.on_first = a1 + s * d1;
  contact.on_second = a2 + t * d2;
  const Vec3 gap = contact.on_first - contact.on_second;
  contact.distance = gap.norm();
  if (contact.distance * contact.distance > kTinySquared) {
    contact.normal = gap / contact.distance;
  } else {
    const Vec3 across = d1.cross(d2);
    contact.normal = across.squaredNorm() > kTinySquared ? Vec3(across.normalized())
                                                         : any_perpendicular(a > kTinySquared ? d1 : d2);
  }
  return contact;
}

Contact segment_box(const Vec3& a, const Vec3& b, const OrientedBox& box) {
  // In the box frame the segment is p(t) = p0 + t d, t in [0, 1].
  const Vec3 p0 = box.R.transpose() * (a - box.centre);
  const Vec3 d = box.R.transpose() * (b - a);
  const Vec3& h = box.half;

  // Outside the box the squared distance is sum_i max(0, |x_i(t)| - h_i)^2: a quadratic between the
  // parameters where some x_i(t) crosses +-h_i. Minimise it exactly on each piece.
  std::array<double, 8> breaks{};
  int n = 0;
  breaks[n++] = 0.0;
  breaks[n++] = 1.0;
  for (int i = 0; i < 3; ++i) {
    if (std::abs(d[i]) < 1.0e-15) continue;
    for (const double side : {-h[i], h[i]}) {
      const double t = (side - p0[i]) / d[i];
      if (t > 0.0 && t < 1.0) breaks[n++] = t;
    }
  }
  for (int k = 1; k < n; ++k)  // insertion sort of at most 8 values
    for (int m = k; m > 0 && breaks[m - 1] > breaks[m]; --m) std::swap(breaks[m - 1], breaks[m]);
  const auto outside_squared = [&](double t) {
    double sum = 0.0;
    for (int i = 0; i < 3; ++i) {
      const double excess = std::abs(p0[i] + t * d[i]) - h[i];
      if (excess > 0.0) sum += excess * excess;
    }
    return sum;
  };
  double best_t = 0.0, best = outside_squared(0.0);
  for (int k = 0; k + 1 < n; ++k) {
    const double lo = breaks[k], hi = breaks[k + 1], mid = 0.5 * (lo + hi);
    double num = 0.0, den = 0.0;  // the piece's quadratic: sum (d_i t + c_i)^2 over the outside axes
    for (int i = 0; i < 3; ++i) {
      const double x = p0[i] + mid * d[i];
      if (std::abs(x) <= h[i]) continue;
      const double c = p0[i] - std::copysign(h[i], x);
      num -= d[i] * c;
      den += d[i] * d[i];
    }
    // A convex quadratic's minimum over [lo, hi] is at its clamped vertex (constant pieces: anywhere).
    const double t = den > 0.0 ? std::clamp(num / den, lo, hi) : lo;
    const double value = outside_squared(t);
    if (value < best) {
      best = value, best_t = t;
    } else if (value > best) {
      break;  // the pieces' minima of a convex function decrease, then increase: the rest are larger
    }
  }

  Contact contact;
  Vec3 p = p0 + best_t * d, surface;
  Vec3 normal_local;
  if (best > kTinySquared) {
    surface = p.cwiseMax(-h).cwiseMin(h);
    contact.distance = std::sqrt(best);
    normal_local = (p - surface) / contact.distance;
  } else {
    // The segment reaches the box: minus its penetration depth, the shortest translation that separates
    // them. By the separating axis theorem it is the smallest overlap of their projections over the face
    // normals of their Minkowski difference: the box's three face normals and the cross products of its
    // three edge directions with the segment. The gap along a unit u (>= 0 apart, minus the overlap
    // otherwise) is min over the segment of u . x minus the box's support h(u) = sum_i h_i |u_i|, and the
    // signed distance is the largest gap. It is smooth where one axis gives it, with the gradient of that
    // axis' gap (Danskin), and it falls to zero along the axis: a constraint on it pushes the segment out
    // by the nearest side. (The depth of the segment's deepest point, used before, is constant while a
    // segment pierces the box through two opposite faces: its gradient vanishes there, and G1's elbows,
    // whose capsules the retarget's reference puts through its torso box, could never be pushed out.)
    const Vec3 b_local = p0 + d;
    double best_gap = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < 3; ++i) {
      // The face normals +-e_i: the segment's end lowest along u against the face.
      for (const double sign : {1.0, -1.0}) {
        const bool from_b = sign * d[i] < 0.0;
        const Vec3& end = from_b ? b_local : p0;
        const double gap = sign * end[i] - h[i];
        if (gap > best_gap) {
          best_gap = gap;
          p = end;
          normal_local = sign * Vec3::Unit(i);
          surface = p - gap * normal_local;
        }
      }
    }
    for (int i = 0; i < 3; ++i) {
      // The edges along e_i against the segment: u = +-(e_i x d) / |e_i x d|, perpendicular to both, so
      // u . x is the same at every point of the segment.
      const Vec3 across = Vec3::Unit(i).cross(d);
      const double length_squared = across.squaredNorm();
      // A segment parallel to the edges (within 1e-6 rad): the face normals give the depth.
      if (length_squared <= 1e-12 * d.squaredNorm()) continue;
      const Vec3 unit = across / std::sqrt(length_squared);
      for (const double sign : {1.0, -1.0}) {
        const Vec3 u = sign * unit;
        const double gap = u.dot(p0) - h.dot(u.cwiseAbs());
        if (gap <= best_gap) continue;
        best_gap = gap;
        // The witness points: the closest points of the segment's line and of the box edge that supports
        // u (the corner signs of u on the other two axes), whose difference is gap * u.
        Vec3 corner = h.cwiseProduct(u.cwiseSign());
        corner[i] = 0.0;
        const Vec3 w = p0 - corner;
        const double a = d.squaredNorm(), b = d[i], dw = d.dot(w), denom = a - b * b;
        p = p0 + ((b * w[i] - dw) / denom) * d;
        surface = corner;
        surface[i] = (a * w[i] - b * dw) / denom;
        normal_local = u;
      }
    }
    contact.distance = best_gap;
  }
  contact.on_first = box.centre + box.R * p;
  contact.on_second = box.centre + box.R * surface;
  contact.normal = box.R * normal_local;
  return contact;
}

Contact box_box(const OrientedBox& first, const OrientedBox& second) {
  // The 24 candidate edges (12 of each box against the other), each with a cheap lower bound of its
  // distance to the other box: in the other box's frame, the distance of a point outside is
  // |max(0, |x| - half)|, no smaller than it is with each |x_l| replaced by its minimum over the edge (the
  // bound is exact when the edge lies over a face); an edge that may reach the box is bounded by minus its
  // smallest overlap with it along the box's axes.
  // The edge of the smallest bound is evaluated first, then every edge whose bound does not exceed the
  // best distance found so far: the others cannot reach it. With the feet of HRP-2, about 4 of the 24 are
  // evaluated (bench_geometry's poses; the bound at the edge midpoint used before left about 11).
  //
  // The result is the one of the exhaustive minimum over the 24 edges in the order (first's edges, then
  // second's; axis i, then sj, then sk): among edges at exactly the same distance (parallel faces) the
  // earliest in that order wins, whatever order they were evaluated in, and each edge is evaluated by the
  // same arithmetic (segment_box in world coordinates). Only an edge whose bound exceeds the best distance
  // by more than kBoundSlack is skipped, which covers the bound's rounding (a few ulps of metre-sized
  // values), so an edge tied with the best is never skipped.
  constexpr double kBoundSlack = 1.0e-12;
  std::array<double, 24> bound{};
  const OrientedBox* const boxes[2] = {&first, &second};
  for (int side = 0; side < 2; ++side) {
    const OrientedBox& edges = *boxes[side];
    const OrientedBox& other = *boxes[1 - side];
    // In the other box's frame: the edge box's centre and half-axes (columns of R_other^T R_edges, scaled).
    const Vec3 centre = other.R.transpose() * (edges.centre - other.centre);
    const Mat3 axes = (other.R.transpose() * edges.R) * edges.half.asDiagonal();
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      for (int m = 0; m < 4; ++m) {
        const double sj = (m & 2) ? 1.0 : -1.0, sk = (m & 1) ? 1.0 : -1.0;
        // Over the edge middle + t along, t in [-1, 1], |x_l| >= max(0, |middle_l| - |along_l|) on each
        // axis l of the other box: its excess over half_l bounds that axis' share of the distance.
        const Vec3 middle = centre + sj * axes.col(j) + sk * axes.col(k);
        const Vec3 reach = middle.cwiseAbs() - axes.col(i).cwiseAbs();
        const Vec3 excess = reach.cwiseMax(0.0) - other.half;
        const double outside = excess.maxCoeff();
        // Inside, the edge's penetration depth is at most its overlap with the box along any face normal,
        // half_l + |along_l| - |middle_l| (segment_box's depth is the smallest overlap over its axes, these
        // among them), so minus that overlap on each axis bounds the edge's signed distance from below.
        const double below = outside > 0.0 ? excess.cwiseMax(0.0).norm() : (reach - other.half).maxCoeff();
        bound[static_cast<size_t>(12 * side + 4 * i + m)] = below;
      }
    }
  }
  Contact best;
  best.distance = std::numeric_limits<double>::infinity();
  int best_index = 24;
  // The edge of the smallest bound first (the likeliest closest: its distance makes most bounds skip),
  // then the others in order.
  int first_edge = 0;
  for (int e = 1; e < 24; ++e)
    if (bound[static_cast<size_t>(e)] < bound[static_cast<size_t>(first_edge)]) first_edge = e;
  const auto evaluate = [&](int next) {
    const int side = next / 12, i = (next % 12) / 4, m = next % 4;
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const double sj = (m & 2) ? 1.0 : -1.0, sk = (m & 1) ? 1.0 : -1.0;
    const OrientedBox& edges = *boxes[side];
    const OrientedBox& other = *boxes[1 - side];
    const Vec3 middle =
        edges.centre + edges.R.col(j) * (sj * edges.half[j]) + edges.R.col(k) * (sk * edges.half[k]);
    const Vec3 along = edges.R.col(i) * edges.half[i];
    Contact c = segment_box(middle - along, middle + along, other);
    if (c.distance < best.distance || (c.distance == best.distance && next < best_index)) {
      if (side == 1) {
        std::swap(c.on_first, c.on_second);
        c.normal = -c.normal;
      }
      best = c;
      best_index = next;
    }
  };
  evaluate(first_edge);
  for (int next = 0; next < 24; ++next)
    if (next != first_edge && bound[static_cast<size_t>(next)] <= best.distance + kBoundSlack) evaluate(next);
  return best;
}

}  // namespace mimic::geometry
