#include "mimic/trajectory/bspline_basis.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <random>
#include <stdexcept>

#include "mimic/trajectory/bspline_trajectory.hpp"
#include "mimic/trajectory/time_grid.hpp"

namespace mt = mimic::trajectory;

namespace {

// Times that include both ends, every knot and points in between.
std::vector<double> probe_times(const mt::QuarticBspline& b) {
  std::vector<double> t = mt::uniform_time_grid(b.t0(), b.tf(), b.knot_spacing() / 7.0);
  for (double k : b.knots()) t.push_back(k);
  t.push_back(b.tf());
  return t;
}

// Value of basis function i at t, whatever window it falls in (0 outside its support).
double basis_value(const mt::QuarticBspline& b, int i, double t, int order) {
  const mt::BasisWindow w = b.evaluate(t);
  const int k = i - w.first;
  return k >= 0 && k < mt::kOrder ? w.derivative[order][k] : 0.0;
}

}  // namespace

TEST(QuarticBspline, KnotsAreClampedAndUniform) {
  const mt::QuarticBspline b(0.5, 2.5, 0.1);
  EXPECT_EQ(b.num_intervals(), 20);
  EXPECT_EQ(b.num_control_points(), 24);
  ASSERT_EQ(b.knots().size(), 29u);
  for (int i = 0; i <= 4; ++i) {
    EXPECT_EQ(b.knots()[i], 0.5);
    EXPECT_EQ(b.knots()[b.knots().size() - 1 - i], 2.5);
  }
  // Knots up to 2.5 rounded to doubles (ulp 4.4e-16): their differences are 0.1 to a few ulp.
  for (int i = 4; i < 24; ++i) EXPECT_NEAR(b.knots()[i + 1] - b.knots()[i], 0.1, 1e-14);
}

TEST(QuarticBspline, SpacingShrinksToDivideTheDuration) {
  const mt::QuarticBspline b(0.0, 1.05, 0.1);
  EXPECT_EQ(b.num_intervals(), 11);
  EXPECT_NEAR(b.knot_spacing(), 1.05 / 11, 1e-15);  // one division: an ulp is 1.4e-17
  EXPECT_LE(b.knot_spacing(), 0.1);
  EXPECT_EQ(mt::QuarticBspline(0.0, 0.15, 0.1).num_intervals(), 2);
  EXPECT_THROW(mt::QuarticBspline(0.0, 0.1, 0.1), std::invalid_argument);  // two intervals needed
  EXPECT_THROW(mt::QuarticBspline(1.0, 1.0, 0.1), std::invalid_argument);
  EXPECT_THROW(mt::QuarticBspline(0.0, 1.0, 0.0), std::invalid_argument);
}

TEST(QuarticBspline, PartitionOfUnityAndNonNegative) {
  const mt::QuarticBspline b(-0.3, 1.7, 0.1);
  for (double t : probe_times(b)) {
    const mt::BasisWindow w = b.evaluate(t);
    ASSERT_GE(w.first, 0);
    ASSERT_LE(w.first + mt::kOrder, b.num_control_points());
    double sum = 0.0;
    double dsum = 0.0;
    double ddsum = 0.0;
    for (int k = 0; k < mt::kOrder; ++k) {
      EXPECT_GE(w.value()[k], -1e-15) << "t=" << t;  // rounding around 0 (measured: never negative)
      sum += w.value()[k];
      dsum += w.first_derivative()[k];
      ddsum += w.second_derivative()[k];
    }
    // Sums of 5 terms of size ~1, ~4 / h = 40 and ~12 / h^2 = 1200 (h = 0.1 s): round-off scaled by the
    // terms (measured 3.3e-16, 1.1e-15, 2.3e-13). Derivatives of a constant vanish.
    EXPECT_NEAR(sum, 1.0, 1e-14) << "t=" << t;
    EXPECT_NEAR(dsum, 0.0, 1e-13) << "t=" << t;
    EXPECT_NEAR(ddsum, 0.0, 1e-11) << "t=" << t;
  }
}

TEST(QuarticBspline, ClampedEndsInterpolate) {
  const mt::QuarticBspline b(0.0, 1.0, 0.1);
  EXPECT_EQ(basis_value(b, 0, 0.0, 0), 1.0);
  EXPECT_EQ(basis_value(b, b.num_control_points() - 1, 1.0, 0), 1.0);
}

TEST(QuarticBspline, DerivativesMatchFiniteDifferences) {
  const mt::QuarticBspline b(0.0, 1.3, 0.1);
  const double h = 1e-6;
  for (double t : probe_times(b)) {
    // Central differences need t +- h inside the interval and the same polynomial piece on both sides.
    if (t - h < b.t0() || t + h > b.tf()) continue;
    bool near_knot = false;
    for (double k : b.knots()) near_knot |= std::abs(t - k) < 2 * h;
    if (near_knot) continue;
    for (int i = 0; i < b.num_control_points(); ++i) {
      const double d1 = (basis_value(b, i, t + h, 0) - basis_value(b, i, t - h, 0)) / (2 * h);
      const double d2 = (basis_value(b, i, t + h, 1) - basis_value(b, i, t - h, 1)) / (2 * h);
      // Central differences, h = 1e-6: round-off eps * |f| / h reaches ~1e-8 for the first derivatives
      // (~40) being differenced; truncation (h^2 / 6 times the third derivative) is below that (measured
      // 1.7e-9 relative).
      EXPECT_NEAR(basis_value(b, i, t, 1), d1, 1e-7 * std::max(1.0, std::abs(d1))) << "i=" << i << " t=" << t;
      EXPECT_NEAR(basis_value(b, i, t, 2), d2, 1e-7 * std::max(1.0, std::abs(d2))) << "i=" << i << " t=" << t;
    }
  }
}

TEST(QuarticBspline, SecondDerivativeIsContinuousAtKnots) {
  // Quartic with simple interior knots: C^3, so qddot has no jump (the reason for the choice in seed 000).
  const mt::QuarticBspline b(0.0, 1.0, 0.1);
  const double e = 1e-9;
  for (std::size_t k = 5; k + 5 < b.knots().size(); ++k) {
    const double t = b.knots()[k];
    for (int i = 0; i < b.num_control_points(); ++i) {
      // The jump allowed is what the (bounded) third derivative makes over 2e, far below any real jump
      // (measured 5.2e-7 relative; a C^2 break is O(1)).
      const double left = basis_value(b, i, t - e, 2);
      EXPECT_NEAR(left, basis_value(b, i, t + e, 2), 1e-6 * std::max(1.0, std::abs(left))) << "knot " << t;
    }
  }
}

TEST(QuarticBspline, OutOfRangeThrowsButRoundingIsClamped) {
  const mt::QuarticBspline b(0.0, 1.0, 0.1);
  EXPECT_THROW(b.evaluate(1.01), std::out_of_range);
  EXPECT_THROW(b.evaluate(-0.01), std::out_of_range);
  EXPECT_NO_THROW(b.evaluate(1.0 + 1e-12));
  EXPECT_THROW(b.evaluate(std::nan("")), std::out_of_range);
}

TEST(BsplineTrajectory, EvaluationIsTheControlPointCombination) {
  const mt::QuarticBspline b(0.0, 2.0, 0.1);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::MatrixXd c(3, b.num_control_points());
  for (Eigen::Index i = 0; i < c.size(); ++i) c.data()[i] = u(rng);
  const mt::BsplineTrajectory traj(b, c);
  // Clamped ends: one basis function is 1 there, the others 0 (a few ulp).
  EXPECT_TRUE(traj.position(0.0).isApprox(c.col(0), 1e-14));
  EXPECT_TRUE(traj.position(2.0).isApprox(c.col(c.cols() - 1), 1e-14));

  const std::vector<double> times = {0.0, 0.333, 1.0, 1.7777, 2.0};
  const mt::JointSamples s = traj.sample(times);
  const double h = 1e-6;
  for (std::size_t i = 0; i < times.size(); ++i) {
    const double t = times[i];
    Eigen::VectorXd expected = Eigen::VectorXd::Zero(3);
    for (int p = 0; p < b.num_control_points(); ++p) expected += basis_value(b, p, t, 0) * c.col(p);
    // The same sums in another order (measured at most 9e-17 relative).
    EXPECT_TRUE(s.q.col(i).isApprox(expected, 1e-13));
    EXPECT_TRUE(s.qdot.col(i).isApprox(traj.velocity(t), 1e-14));
    EXPECT_TRUE(s.qddot.col(i).isApprox(traj.acceleration(t), 1e-14));
    if (t - h >= 0.0 && t + h <= 2.0) {
      const Eigen::VectorXd fd = (traj.position(t + h) - traj.position(t - h)) / (2 * h);
      // Central differences, h = 1e-6, control points in [-1, 1]: round-off ~eps * |q| / h (measured
      // 1.3e-10 and 2.2e-10 relative); 1e-8 leaves ~50x.
      EXPECT_LT((fd - traj.velocity(t)).norm(), 1e-8 * std::max(1.0, fd.norm()));
      const Eigen::VectorXd fd2 = (traj.velocity(t + h) - traj.velocity(t - h)) / (2 * h);
      EXPECT_LT((fd2 - traj.acceleration(t)).norm(), 1e-8 * std::max(1.0, fd2.norm()));
    }
  }
  EXPECT_THROW(mt::BsplineTrajectory(b, Eigen::MatrixXd::Zero(3, 5)), std::invalid_argument);
}

TEST(TimeGrid, IncludesEndWhenItIsOnTheGrid) {
  const auto g = mt::uniform_time_grid(0.0, 2.0, mt::kOutputPeriod);
  ASSERT_EQ(g.size(), 401u);
  EXPECT_EQ(g.back(), 2.0);
  EXPECT_NEAR(g[200], 1.0, 1e-15);  // 200 * 0.005 rounded once: an ulp of 1 is 2.2e-16
  const auto h = mt::uniform_time_grid(0.0, 1.0024, 0.005);
  EXPECT_EQ(h.size(), 201u);
  EXPECT_NEAR(h.back(), 1.0, 1e-15);  // same
}
