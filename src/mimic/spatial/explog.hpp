// Exponential and logarithm maps of SO(3) and SE(3).
//   exp3(w)   = rotation of angle |w| about w / |w| (Rodrigues)
//   log3(R)   = w with |w| in [0, pi] and exp3(w) = R
//   exp6(V)   = the SE3 reached by following the constant twist V (body frame) for unit time
//   log6(M)   = the twist V with exp6(V) = M (angular part from log3)
// All four switch to Taylor expansions near angle 0 and log3 uses the symmetric part of R near pi, where
// the textbook formulas divide by sin(angle) (accuracy ~1e-15 rad at any angle, see tests/spatial/).
#pragma once

#include "mimic/spatial/motion.hpp"
#include "mimic/spatial/se3.hpp"
#include "mimic/spatial/types.hpp"

namespace mimic::spatial {

Mat3 exp3(const Vec3& w);
// Angle in [0, pi] times the axis; at exactly pi either of the two opposite vectors is returned.
Vec3 log3(const Mat3& R);
SE3 exp6(const Motion& V);
Motion log6(const SE3& M);

// Right Jacobian of exp3: exp3(w + dw) ≈ exp3(w) exp3(Jr(w) dw) (for derivatives of orientation tasks).
Mat3 jexp3(const Vec3& w);
// Inverse of jexp3 evaluated at log3(R): log3(R exp3(dw)) ≈ log3(R) + Jlog3(R) dw.
Mat3 jlog3(const Vec3& w);

}  // namespace mimic::spatial
