// Inertia: the spatial inertia of a rigid body as the triplet (mass m, centre of mass c, rotational inertia
// I_c about the centre of mass), all in the coordinates of one frame (seed 002 "Inertia"). Its 6x6 form
// about the frame origin is
//   Y = [ m 1         -m [c]           ]
//       [ m [c]    I_c - m [c][c]      ]
// which is seed 000 eq. (8) written in the [linear; angular] order.
#pragma once

#include <cmath>

#include "mimic/spatial/force.hpp"
#include "mimic/spatial/motion.hpp"
#include "mimic/spatial/types.hpp"

namespace mimic::spatial {

struct Inertia {
  double mass = 0.0;
  Vec3 com = Vec3::Zero();          // centre of mass in the frame
  Mat3 inertia_com = Mat3::Zero();  // rotational inertia about the centre of mass, frame axes (symmetric)

  Inertia() = default;
  Inertia(double m, const Vec3& c, const Mat3& i_c) : mass(m), com(c), inertia_com(i_c) {}
  static Inertia Zero() { return Inertia(); }
  // A random physically valid inertia (positive mass, positive definite I_c), for tests.
  static Inertia Random() {
    const Mat3 a = Mat3::Random();
    return Inertia(0.5 + std::abs(Vec3::Random().x()), Vec3::Random(),
                   a * a.transpose() + 0.1 * Mat3::Identity());
  }

  // Y * V: the momentum of the body moving with twist V, [m (v - c×w); I_c w + c × m (v - c×w)].
  Force operator*(const Motion& V) const {
    const Vec3 lin = mass * (V.v - com.cross(V.w));
    return Force(lin, inertia_com * V.w + com.cross(lin));
  }

  // V ×* (Y V): the bias force of a body moving with twist V (seed 000 eq. (6) b_i = -ad*_V (J V)).
  Force vxiv(const Motion& V) const {
    const Force h = (*this) * V;
    return V.cross(h);
  }

  // Kinetic energy 1/2 <Y V, V>.
  double kinetic_energy(const Motion& V) const { return 0.5 * V.dot((*this) * V); }

  // The 6x6 matrix form about the frame origin (see the file comment).
  Mat6 matrix() const {
    Mat6 y;
    const Mat3 c = skew(com);
    y.topLeftCorner<3, 3>() = mass * Mat3::Identity();
    y.topRightCorner<3, 3>() = -mass * c;
    y.bottomLeftCorner<3, 3>() = mass * c;
    y.bottomRightCorner<3, 3>() = inertia_com - mass * c * c;
    return y;
  }

  // Rotational inertia about the frame origin: I_c - m [c][c].
  Mat3 inertia_about_origin() const {
    const Mat3 c = skew(com);
    return inertia_com - mass * c * c;
  }

  // Inertia of the rigid union of two bodies expressed in the same frame (parallel-axis theorem).
  Inertia& operator+=(const Inertia& o) {
    const double m = mass + o.mass;
    if (m <= 0.0) {
      *this = Inertia();
      return *this;
    }
    const Vec3 c = (mass * com + o.mass * o.com) / m;
    const Mat3 d1 = skew(com - c);
    const Mat3 d2 = skew(o.com - c);
    inertia_com = inertia_com - mass * d1 * d1 + o.inertia_com - o.mass * d2 * d2;
    mass = m;
    com = c;
    return *this;
  }
  friend Inertia operator+(Inertia a, const Inertia& b) { return a += b; }

  bool isApprox(const Inertia& o, double prec = Eigen::NumTraits<double>::dummy_precision()) const {
    return matrix().isApprox(o.matrix(), prec);
  }
};

}  // namespace mimic::spatial
