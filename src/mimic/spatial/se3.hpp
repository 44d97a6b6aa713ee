// SE3: a rigid transformation aMb (seed 002 "Rigid transformation"), stored as the rotation R = aRb and the
// translation p = position of b's origin in a. It maps b-coordinates to a-coordinates:
//   act(point)   = R x + p
//   act(Motion)  = Ad_M V  = [R v + p × R w;  R w]                      (b -> a)
//   act(Force)   = Ad_M^{-T} F = [R f;  R tau + p × R f]                (b -> a)
//   act(Inertia) = (m, R c + p, R I_c R^T)                               (b -> a)
// and act_inv() maps a-coordinates back to b (cheaper than forming the inverse, seed 002 "Nota").
#pragma once

#include <algorithm>

#include "mimic/spatial/force.hpp"
#include "mimic/spatial/inertia.hpp"
#include "mimic/spatial/motion.hpp"
#include "mimic/spatial/types.hpp"

namespace mimic::spatial {

struct SE3 {
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();

  SE3() = default;
  SE3(const Mat3& rotation, const Vec3& translation) : R(rotation), p(translation) {}
  static SE3 Identity() { return SE3(); }
  // A random transformation (uniform rotation, translation in [-1, 1]^3), for tests.
  static SE3 Random() { return SE3(Quat::UnitRandom().toRotationMatrix(), Vec3::Random()); }
  // From a 4x4 homogeneous matrix [R p; 0 1].
  static SE3 from_homogeneous(const Eigen::Matrix4d& h) {
    return SE3(h.topLeftCorner<3, 3>(), h.topRightCorner<3, 1>());
  }

  const Mat3& rotation() const { return R; }
  const Vec3& translation() const { return p; }

  Eigen::Matrix4d to_homogeneous() const {
    Eigen::Matrix4d h = Eigen::Matrix4d::Identity();
    h.topLeftCorner<3, 3>() = R;
    h.topRightCorner<3, 1>() = p;
    return h;
  }
  // The 6x6 matrix of act(Motion): Ad_M = [R  [p]R; 0  R] (seed 002 aXb).
  Mat6 action_matrix() const {
    Mat6 x;
    x.topLeftCorner<3, 3>() = R;
    x.topRightCorner<3, 3>() = skew(p) * R;
    x.bottomLeftCorner<3, 3>().setZero();
    x.bottomRightCorner<3, 3>() = R;
    return x;
  }
  // The 6x6 matrix of act(Force): Ad_M^{-T} = [R 0; [p]R  R] (seed 002 aXb^*).
  Mat6 dual_action_matrix() const {
    Mat6 x;
    x.topLeftCorner<3, 3>() = R;
    x.topRightCorner<3, 3>().setZero();
    x.bottomLeftCorner<3, 3>() = skew(p) * R;
    x.bottomRightCorner<3, 3>() = R;
    return x;
  }

  SE3 inverse() const { return SE3(R.transpose(), -(R.transpose() * p)); }
  // Composition aMb * bMc = aMc.
  SE3 operator*(const SE3& m) const { return SE3(R * m.R, p + R * m.p); }
  // this^{-1} * m, without forming the inverse: aMb^{-1} aMc = bMc.
  SE3 act_inv(const SE3& m) const { return SE3(R.transpose() * m.R, R.transpose() * (m.p - p)); }
  SE3 act(const SE3& m) const { return (*this) * m; }

  Vec3 act(const Vec3& x) const { return R * x + p; }
  Vec3 act_inv(const Vec3& x) const { return R.transpose() * (x - p); }

  Motion act(const Motion& m) const {
    const Vec3 w = R * m.w;
    return Motion(R * m.v + p.cross(w), w);
  }
  Motion act_inv(const Motion& m) const {
    return Motion(R.transpose() * (m.v - p.cross(m.w)), R.transpose() * m.w);
  }

  Force act(const Force& F) const {
    const Vec3 f = R * F.f;
    return Force(f, R * F.tau + p.cross(f));
  }
  Force act_inv(const Force& F) const {
    return Force(R.transpose() * F.f, R.transpose() * (F.tau - p.cross(F.f)));
  }

  Inertia act(const Inertia& Y) const {
    return Inertia(Y.mass, R * Y.com + p, R * Y.inertia_com * R.transpose());
  }
  Inertia act_inv(const Inertia& Y) const {
    return Inertia(Y.mass, R.transpose() * (Y.com - p), R.transpose() * Y.inertia_com * R);
  }

  bool isApprox(const SE3& o, double prec = Eigen::NumTraits<double>::dummy_precision()) const {
    return R.isApprox(o.R, prec) && (p - o.p).norm() <= prec * std::max(1.0, std::max(p.norm(), o.p.norm()));
  }
};

}  // namespace mimic::spatial
