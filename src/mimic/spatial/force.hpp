// Force: a spatial force (wrench) [f; tau] = [linear force; moment about the frame's origin], in the
// coordinates of one frame (seed 002 "Force Application"). Dual of Motion: <F, V> = f.v + tau.w is power.
#pragma once

#include "mimic/spatial/types.hpp"

namespace mimic::spatial {

struct Force {
  Vec3 f = Vec3::Zero();    // linear part (N)
  Vec3 tau = Vec3::Zero();  // angular part: moment about the origin of the frame (N m)

  Force() = default;
  Force(const Vec3& linear, const Vec3& angular) : f(linear), tau(angular) {}
  static Force Zero() { return Force(); }
  static Force from_vector(const Vec6& x) { return Force(x.head<3>(), x.tail<3>()); }

  Vec6 to_vector() const {
    Vec6 x;
    x << f, tau;
    return x;
  }
  const Vec3& linear() const { return f; }
  const Vec3& angular() const { return tau; }

  Force& operator+=(const Force& o) {
    f += o.f;
    tau += o.tau;
    return *this;
  }
  Force& operator-=(const Force& o) {
    f -= o.f;
    tau -= o.tau;
    return *this;
  }
  friend Force operator+(Force a, const Force& b) { return a += b; }
  friend Force operator-(Force a, const Force& b) { return a -= b; }
  friend Force operator-(const Force& a) { return Force(-a.f, -a.tau); }
  friend Force operator*(double s, const Force& a) { return Force(s * a.f, s * a.tau); }

  bool isApprox(const Force& o, double prec = Eigen::NumTraits<double>::dummy_precision()) const {
    return to_vector().isApprox(o.to_vector(), prec);
  }
  void setZero() {
    f.setZero();
    tau.setZero();
  }
};

}  // namespace mimic::spatial
