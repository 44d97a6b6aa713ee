#include "mimic/stability/cart_table.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace mimic::stability {
namespace {

const CartTable kCart{0.8078, 9.81, 0.005};  // HRP-2 half-sitting CoM height, 5 ms

std::vector<double> random_sequence(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-0.1, 0.1);
  std::vector<double> x(n);
  for (double& v : x) v = u(rng);
  return x;
}

double max_abs_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

TEST(CartTable, StateSpaceIntegratesAConstantJerkExactly) {
  const Eigen::Vector3d x0(0.1, -0.2, 0.3);
  const double jerk = 4.0, t = kCart.period;
  const Eigen::Vector3d x1 = kCart.A() * x0 + kCart.B() * jerk;
  EXPECT_NEAR(x1(0), 0.1 - 0.2 * t + 0.3 * t * t / 2 + jerk * t * t * t / 6, 1e-15);
  EXPECT_NEAR(x1(1), -0.2 + 0.3 * t + jerk * t * t / 2, 1e-15);
  EXPECT_NEAR(x1(2), 0.3 + jerk * t, 1e-15);
  EXPECT_NEAR(kCart.C() * x1, kCart.zmp({x1(0), x1(1), x1(2)}), 1e-15);
  EXPECT_NEAR(kCart.zmp({0.05, 0.0, 1.0}), 0.05 - 0.8078 / 9.81, 1e-15);
}

// The system matrix has condition number ~ 1 + 4 zc / (g dt^2) ~ 1.3e4, so the solve is exact to
// ~1e4 * 1e-16 relative (measured 1.3e-12 at worst, n = 2000); 1e-10 leaves a wide margin and is far below
// anything physical. Relative to the CoM's magnitude: random ZMP on 2-3 samples demands CoM excursions of
// hundreds of metres (the whole acceleration must happen in 10 ms), and recomputing the ZMP differences such
// values.
TEST(CartTable, TridiagonalSolveReproducesTheTargetZmpExactly) {
  for (const CartBoundary boundary : {CartBoundary::kHeldStill, CartBoundary::kNeighbourAcceleration}) {
    for (const std::size_t n : {1u, 2u, 3u, 4u, 17u, 2000u}) {
      const std::vector<double> target = random_sequence(n, static_cast<unsigned>(n));
      std::vector<double> com(n), zmp(n);
      solve_com_for_zmp(kCart, target, com, boundary);
      discrete_zmp(kCart, com, zmp, boundary);
      double scale = 1.0;
      for (const double x : com) scale = std::max(scale, std::abs(x));
      EXPECT_LT(max_abs_difference(zmp, target), 1e-10 * scale) << "n = " << n;
    }
  }
}

// Neighbour-acceleration ends: the CoM moves parallel to the ZMP over the first and last intervals.
TEST(CartTable, NeighbourAccelerationEndsKeepTheCentreOfMassParallelToTheZmp) {
  const std::vector<double> target = random_sequence(300, 11);
  std::vector<double> com(target.size());
  solve_com_for_zmp(kCart, target, com, CartBoundary::kNeighbourAcceleration);
  // Round-off of O(1) values: measured 1.4e-16.
  EXPECT_NEAR(com[1] - com[0], target[1] - target[0], 1e-14);
  EXPECT_NEAR(com[299] - com[298], target[299] - target[298], 1e-14);
}

TEST(CartTable, ConstantZmpHeldStillIsStaticEquilibrium) {
  const std::vector<double> target(500, 0.042);
  std::vector<double> com(target.size());
  for (const CartBoundary boundary : {CartBoundary::kHeldStill, CartBoundary::kNeighbourAcceleration}) {
    solve_com_for_zmp(kCart, target, com, boundary);
    EXPECT_LT(max_abs_difference(com, target), 1e-13);  // round-off of the solve: measured 1.8e-15
  }
}

// The response to a ZMP impulse is the bounded solution of x - a (x+ - 2x + x-) = 0 away from the impulse:
// x_{k+1} = lambda x_k with lambda + 1/lambda = 2 + 1/a, the discrete counterpart of exp(-dt / Tc),
// Tc = sqrt(zc / g). It decays symmetrically on both sides: the CoM moves before the ZMP event.
TEST(CartTable, ImpulseResponseDecaysWithTheCartTableTimeConstantOnBothSides) {
  const std::size_t n = 2001, centre = 1000;
  std::vector<double> target(n, 0.0), com(n);
  target[centre] = 1.0;
  solve_com_for_zmp(kCart, target, com, CartBoundary::kHeldStill);
  const double a = kCart.com_height / (kCart.gravity * kCart.period * kCart.period);
  const double s = 2.0 + 1.0 / a;
  const double lambda = (s - std::sqrt(s * s - 4.0)) / 2.0;
  for (const std::size_t k : {centre + 1, centre + 50, centre + 200}) {
    EXPECT_NEAR(com[k + 1] / com[k], lambda, 1e-12);  // round-off, relative: measured 2.9e-14
    EXPECT_NEAR(com[2 * centre - k], com[k], 1e-15);  // symmetric
  }
  // Continuous limit: lambda = exp(-y) with cosh y = 1 + x^2 / 2, x = dt / Tc = 0.0174, so y = x - x^3 / 24
  // and lambda - exp(-x) = x^3 / 24 = 2.2e-7 (measured 2.17e-7): an analytic figure, not round-off.
  const double tc = std::sqrt(kCart.com_height / kCart.gravity);
  EXPECT_NEAR(lambda, std::exp(-kCart.period / tc), 1e-6);
  EXPECT_GT(com[centre], 0.0);
}

TEST(CartTable, RejectsBadParametersAndSizes) {
  std::vector<double> a(3), b(4);
  const auto held = CartBoundary::kHeldStill;
  EXPECT_THROW(solve_com_for_zmp(kCart, a, b, held), std::invalid_argument);
  EXPECT_THROW(solve_com_for_zmp(CartTable{0.0, 9.81, 0.005}, a, a, held), std::invalid_argument);
  EXPECT_THROW(discrete_zmp(CartTable{0.8, 9.81, -1.0}, a, a, held), std::invalid_argument);
}

}  // namespace
}  // namespace mimic::stability
