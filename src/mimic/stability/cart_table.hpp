// The cart-table model (Kajita et al., "Biped walking pattern generation by using preview control of
// zero-moment point", ICRA 2003, eq. (1)-(4)): the whole robot is a cart of the total mass running on a
// massless table at the constant centre-of-mass height zc; along one horizontal axis
//     p = x - (zc / g) x''                                                  (ZMP p, CoM x)
// Both horizontal axes are independent, so everything here is one-dimensional.
//
// Two ways go from a ZMP sequence to a CoM sequence:
//  * solve_com_for_zmp() (this header): the exact solution of the discretized equation with boundary
//    conditions, a tridiagonal system. It reproduces the given ZMP at every sample exactly; the
//    stabilizer uses it to correct a known ZMP error of a whole motion;
//  * walking::PreviewController (walking/preview_control.hpp): causal tracking with a finite preview, for
//    the walking pattern generator, which streams a ZMP reference.
#pragma once

#include <Eigen/Core>
#include <span>

namespace mimic::stability {

// State of the cart along one axis.
struct CartState {
  double position = 0.0;      // m
  double velocity = 0.0;      // m/s
  double acceleration = 0.0;  // m/s^2
};

struct CartTable {
  double com_height = 0.8078;  // zc, m above the ground (HRP-2 half-sitting CoM, hrp2.md §3 note 8)
  double gravity = 9.81;       // m/s^2
  double period = 0.005;       // sampling period dt, s (HRP-2 control period, hrp2.md §6)

  // Throws std::invalid_argument unless zc, g and dt are positive and finite.
  void validate() const;

  double zmp(const CartState& s) const { return s.position - com_height / gravity * s.acceleration; }

  // Discrete state space of [x, x', x''] with the jerk held constant over a period (Kajita 2003 eq. (4)):
  //   X(k+1) = A X(k) + B u(k),   p(k) = C X(k).
  Eigen::Matrix3d A() const;
  Eigen::Vector3d B() const;
  Eigen::RowVector3d C() const;
};

// Boundary conditions of the discretized cart-table equation. The discrete ZMP at an inner sample k is
//     p_k = x_k - (zc / (g dt^2)) (x_{k+1} - 2 x_k + x_{k-1});
// the end samples need a convention for their acceleration:
enum class CartBoundary {
  // The acceleration of an end sample is that of its neighbour (x_0'' = x_1'', x_{N-1}'' = x_{N-2}''), as
  // in differentiate() (sampled_motion.hpp), whose finite differences give the multibody ZMP: with the same
  // convention, a CoM shift computed here changes that ZMP as predicted (up to the multibody effects the
  // cart-table ignores). Equivalent boundary conditions: x_1 - x_0 = p_1 - p_0 and likewise at the end (the
  // CoM moves parallel to the ZMP there). Fewer than 3 samples have no acceleration: x = p.
  kNeighbourAcceleration,
  // x_{-1} = x_0 and x_N = x_{N-1}: the cart is at rest before the first and after the last sample (a robot
  // holding the end poses of a played-back sequence).
  kHeldStill,
};

// The CoM sequence x_0..x_{N-1} whose discrete ZMP equals `zmp` at every sample (Thomas algorithm on the
// tridiagonal system; no pivoting needed: the inner rows are diagonally dominant and the end rows of
// kNeighbourAcceleration, after one elimination, read x_1 - x_0 = p_1 - p_0). `com` must have the size of
// `zmp`. This is the bounded solution of the two-point boundary value problem: the unstable mode of the
// inverse cart-table is cut by the boundary conditions, and the response to a ZMP impulse decays as exp(-|t|
// / Tc), Tc = sqrt(zc / g), on both sides (the CoM anticipates, like preview control).
void solve_com_for_zmp(const CartTable& cart, std::span<const double> zmp, std::span<double> com,
                       CartBoundary boundary);

// The discrete ZMP of a CoM sequence under the same convention (the inverse of solve_com_for_zmp).
void discrete_zmp(const CartTable& cart, std::span<const double> com, std::span<double> zmp,
                  CartBoundary boundary);

}  // namespace mimic::stability
