#include "mimic/trajectory/spline_fit.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "mimic/trajectory/time_grid.hpp"

namespace mt = mimic::trajectory;

namespace {

Eigen::VectorXd random_vector(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = u(rng);
  return v;
}

}  // namespace

TEST(SplineFit, ReproducesASplineOfTheSameParameterizationExactly) {
  const Eigen::VectorXd q0 = random_vector(5, 1);
  const Eigen::VectorXd qf = random_vector(5, 2);
  for (const auto& [start, end] : {std::pair{mt::EndSpec::fixed_at_rest(q0), mt::EndSpec::fixed_at_rest(qf)},
                                   std::pair{mt::EndSpec::at_rest(), mt::EndSpec::free()}}) {
    const mt::SplineParameterization p(mt::QuarticBspline(0.0, 3.0), 5, start, end);
    const Eigen::VectorXd x = random_vector(p.num_variables(), 3);
    // At the 120 Hz mocap rate (not the knot grid).
    const std::vector<double> times = mt::uniform_time_grid(0.0, 3.0, 1.0 / 120);
    const Eigen::MatrixXd reference = p.trajectory(x).sample(times).q;
    const Eigen::VectorXd fitted = mt::fit_spline(p, times, reference);
    // Least squares on data the model reproduces exactly: round-off times the conditioning of the 120 Hz
    // basis matrix (measured 6.2e-15); 1e-11 leaves ~1000x.
    EXPECT_LT((fitted - x).cwiseAbs().maxCoeff(), 1e-11);
  }
}

TEST(SplineFit, KeepsTheBoundaryStructureOnAReferenceThatViolatesIt) {
  // Sines that start at q0 but not at rest: the fit stays pinned to q0 at rest and tracks them once the
  // boundary layer has passed (the least-squares error it causes decays by ~0.6 per knot).
  const int nj = 2;
  const Eigen::VectorXd q0 = Eigen::VectorXd::Zero(nj);
  const mt::SplineParameterization p(mt::QuarticBspline(0.0, 4.0), nj, mt::EndSpec::fixed_at_rest(q0),
                                     mt::EndSpec::at_rest());
  const std::vector<double> times = mt::uniform_time_grid(0.0, 4.0, 0.01);
  Eigen::MatrixXd reference(nj, times.size());
  for (std::size_t n = 0; n < times.size(); ++n) {
    reference(0, n) = std::sin(2 * std::numbers::pi * 0.5 * times[n]);
    reference(1, n) = 0.3 * std::sin(2 * std::numbers::pi * 1.0 * times[n]);
  }
  const mt::BsplineTrajectory traj = p.trajectory(mt::fit_spline(p, times, reference));
  // The boundary structure is built into the parameterization (measured: exactly 0); the bounds are
  // round-off of the first control points times the basis derivatives (~40 / s at 0.1 s knots).
  EXPECT_LT(traj.position(0.0).norm(), 1e-15);
  EXPECT_LT(traj.velocity(0.0).norm(), 1e-12);
  EXPECT_LT(traj.velocity(4.0).norm(), 1e-12);
  const mt::JointSamples s = traj.sample(times);
  double interior_error = 0.0;
  for (std::size_t n = 0; n < times.size(); ++n) {
    if (times[n] > 1.5 && times[n] < 2.5)
      interior_error = std::max(interior_error, (s.q.col(n) - reference.col(n)).norm());
  }
  // Away from the boundary layer: the quartic spline's approximation error of the sines at 0.1 s knots
  // (measured 5.3e-5); 2e-4 for the layer's remaining decay.
  EXPECT_LT(interior_error, 2e-4);
}

TEST(SplineFit, TooSparseSamplesThrow) {
  const mt::SplineParameterization p(mt::QuarticBspline(0.0, 3.0), 1, mt::EndSpec::free(),
                                     mt::EndSpec::free());
  const std::vector<double> times = mt::uniform_time_grid(0.0, 3.0, 0.5);
  EXPECT_THROW(mt::fit_spline(p, times, Eigen::MatrixXd::Zero(1, times.size())), std::invalid_argument);
  EXPECT_THROW(mt::fit_spline(p, times, Eigen::MatrixXd::Zero(2, times.size())), std::invalid_argument);
}
