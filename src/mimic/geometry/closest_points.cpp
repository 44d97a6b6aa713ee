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
    // The segment reaches the box: minimise the signed distance max_i(|x_i(t)| - h_i), a convex
    // piecewise-linear function of t, whose minimum is at an end or where two of its six affine pieces
    // +-x_i(t) - h_i cross.
    const auto signed_distance = [&](double t, int* axis, double* sign) {
      double worst = -std::numeric_limits<double>::infinity();
      for (int i = 0; i < 3; ++i) {
        const double x = p0[i] + t * d[i];
        const double value = std::abs(x) - h[i];
        if (value > worst) worst = value, *axis = i, *sign = x >= 0.0 ? 1.0 : -1.0;
      }
      return worst;
    };
    int axis = 0;
    double sign = 1.0;
    best_t = 0.0;
    double deepest = signed_distance(0.0, &axis, &sign);
    const auto consider = [&](double t) {
      if (!(t >= 0.0 && t <= 1.0)) return;
      int k = 0;
      double s = 1.0;
      const double value = signed_distance(t, &k, &s);
      if (value < deepest) deepest = value, best_t = t, axis = k, sign = s;
    };
    consider(1.0);
    for (int i = 0; i < 6; ++i) {
      for (int j = i + 1; j < 6; ++j) {
        // piece k: s_k (p0[k] + t d[k]) - h[k], s_k = +1 for k < 3, -1 otherwise
        const int ki = i % 3, kj = j % 3;
        const double si = i < 3 ? 1.0 : -1.0, sj = j < 3 ? 1.0 : -1.0;
        const double slope = si * d[ki] - sj * d[kj];
        if (std::abs(slope) < 1.0e-15) continue;
        consider((sj * p0[kj] - h[kj] - si * p0[ki] + h[ki]) / slope);
      }
    }
    int k = 0;
    double s = 1.0;
    contact.distance = signed_distance(best_t, &k, &s);
    p = p0 + best_t * d;
    surface = p;
    surface[k] = s * h[k];
    normal_local = s * Vec3::Unit(k);
  }
  contact.on_first = box.centre + box.R * p;
  contact.on_second = box.centre + box.R * surface;
  contact.normal = box.R * normal_local;
  return contact;
}

Contact box_box(const OrientedBox& first, const OrientedBox& second) {
  Contact best;
  best.distance = std::numeric_limits<double>::infinity();
  // The 12 edges of a box: for each axis i, the 4 edges parallel to it.
  const auto edges_against = [&best](const OrientedBox& edges, const OrientedBox& other, bool swapped) {
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      for (const double sj : {-1.0, 1.0}) {
        for (const double sk : {-1.0, 1.0}) {
          const Vec3 middle =
              edges.centre + edges.R.col(j) * (sj * edges.half[j]) + edges.R.col(k) * (sk * edges.half[k]);
          const Vec3 along = edges.R.col(i) * edges.half[i];
          // The box's signed distance is 1-Lipschitz, so no point of this edge is closer than the
          // midpoint's signed distance less the edge's half length: skip the edge when that already
          // reaches the best found (it could not replace it).
          const Vec3 excess = (other.R.transpose() * (middle - other.centre)).cwiseAbs() - other.half;
          const double outside = excess.maxCoeff();
          const double midpoint = outside > 0.0 ? excess.cwiseMax(0.0).norm() : outside;
          if (midpoint - edges.half[i] >= best.distance) continue;
          Contact c = segment_box(middle - along, middle + along, other);
          if (c.distance < best.distance) {
            if (swapped) {
              std::swap(c.on_first, c.on_second);
              c.normal = -c.normal;
            }
            best = c;
          }
        }
      }
    }
  };
  edges_against(first, second, false);
  edges_against(second, first, true);
  return best;
}

}  // namespace mimic::geometry
