// Motion: a spatial velocity or acceleration (twist) [v; w] = [linear velocity of the point at the frame's
// origin; angular velocity], in the coordinates of one frame (seed 002 "Motion Application").
#pragma once

#include "mimic/spatial/force.hpp"
#include "mimic/spatial/types.hpp"

namespace mimic::spatial {

struct Motion {
  Vec3 v = Vec3::Zero();  // linear part (m/s): velocity of the body point at the frame origin
  Vec3 w = Vec3::Zero();  // angular part (rad/s)

  Motion() = default;
  Motion(const Vec3& linear, const Vec3& angular) : v(linear), w(angular) {}
  static Motion Zero() { return Motion(); }
  static Motion from_vector(const Vec6& x) { return Motion(x.head<3>(), x.tail<3>()); }

  Vec6 to_vector() const {
    Vec6 x;
    x << v, w;
    return x;
  }
  const Vec3& linear() const { return v; }
  const Vec3& angular() const { return w; }

  // Motion-motion cross product = ad_this(m) (seed 002 "Cross products"): [v×w2 + w×v2; w×w2].
  Motion cross(const Motion& m) const { return Motion(v.cross(m.w) + w.cross(m.v), w.cross(m.w)); }
  // Motion-force cross product (Featherstone ×*): [w×f; w×tau + v×f] = -ad_this^T(f) = -ad*_this(f).
  Force cross(const Force& F) const { return Force(w.cross(F.f), w.cross(F.tau) + v.cross(F.f)); }
  // Power pairing <F, V> = f.v + tau.w (frame independent).
  double dot(const Force& F) const { return v.dot(F.f) + w.dot(F.tau); }

  Motion& operator+=(const Motion& o) {
    v += o.v;
    w += o.w;
    return *this;
  }
  Motion& operator-=(const Motion& o) {
    v -= o.v;
    w -= o.w;
    return *this;
  }
  friend Motion operator+(Motion a, const Motion& b) { return a += b; }
  friend Motion operator-(Motion a, const Motion& b) { return a -= b; }
  friend Motion operator-(const Motion& a) { return Motion(-a.v, -a.w); }
  friend Motion operator*(double s, const Motion& a) { return Motion(s * a.v, s * a.w); }

  bool isApprox(const Motion& o, double prec = Eigen::NumTraits<double>::dummy_precision()) const {
    return to_vector().isApprox(o.to_vector(), prec);
  }
  void setZero() {
    v.setZero();
    w.setZero();
  }
};

inline double dot(const Force& F, const Motion& V) { return V.dot(F); }

}  // namespace mimic::spatial
