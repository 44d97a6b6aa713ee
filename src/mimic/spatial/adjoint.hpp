// The operators of seed 000 (appendix) in the [linear; angular] order of seed 002, as functions and as
// 6x6 matrices:
//   Ad_g V      = g.act(V)               (adjoint action on twists)
//   Ad*_g F     = Ad_g^T F = g.act_inv(F) (dual adjoint, so that <Ad*_g F, V> = <F, Ad_g V>)
//   ad_V W      = V.cross(W)             (Lie bracket [V, W])
//   ad*_V F     = ad_V^T F = -V.cross(F) (dual Lie bracket, <ad*_V F, W> = <F, ad_V W>)
// Beware: seed 002 (Pinocchio) transports forces with Ad_g^{-T} = g.act(F); seed 000 writes that as
// Ad*_{g^{-1}}. Both are here; the names say which one is meant.
#pragma once

#include "mimic/spatial/force.hpp"
#include "mimic/spatial/motion.hpp"
#include "mimic/spatial/se3.hpp"
#include "mimic/spatial/types.hpp"

namespace mimic::spatial {

inline Motion Ad(const SE3& g, const Motion& V) { return g.act(V); }
inline Force Ad_star(const SE3& g, const Force& F) { return g.act_inv(F); }
inline Motion ad(const Motion& V, const Motion& W) { return V.cross(W); }
inline Force ad_star(const Motion& V, const Force& F) { return -V.cross(F); }

// Ad_g as a matrix: [R  [p]R; 0  R].
inline Mat6 Ad_matrix(const SE3& g) { return g.action_matrix(); }
// Ad*_g = Ad_g^T as a matrix: [R^T  0; -R^T [p]  R^T].
inline Mat6 Ad_star_matrix(const SE3& g) { return g.action_matrix().transpose(); }
// ad_V as a matrix: [[w]  [v]; 0  [w]].
inline Mat6 ad_matrix(const Motion& V) {
  Mat6 m;
  m.topLeftCorner<3, 3>() = skew(V.w);
  m.topRightCorner<3, 3>() = skew(V.v);
  m.bottomLeftCorner<3, 3>().setZero();
  m.bottomRightCorner<3, 3>() = skew(V.w);
  return m;
}
// ad*_V = ad_V^T as a matrix.
inline Mat6 ad_star_matrix(const Motion& V) { return ad_matrix(V).transpose(); }

}  // namespace mimic::spatial
