#include "mimic/trajectory/smoothing_fit.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <numbers>
#include <random>
#include <stdexcept>

namespace mt = mimic::trajectory;

namespace {

constexpr double kPeriod = 0.005;  // the walking pattern's 200 Hz

// The smoother's objective over the samples y (one column): what smooth_samples minimises.
double objective(const Eigen::VectorXd& x, const Eigen::VectorXd& y, double period, double cutoff) {
  const double mu = std::pow(2.0 * std::numbers::pi * cutoff, -4.0);
  double value = period * (x - y).squaredNorm();
  for (Eigen::Index k = 1; k + 1 < x.size(); ++k) {
    const double acceleration = (x[k - 1] - 2.0 * x[k] + x[k + 1]) / (period * period);
    value += mu * period * acceleration * acceleration;
  }
  return value;
}

Eigen::VectorXd noisy_walk(Eigen::Index n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0.0, 0.02);
  Eigen::VectorXd y(n);
  for (Eigen::Index k = 0; k < n; ++k)
    y[k] = 0.4 * std::sin(2.0 * std::numbers::pi * 0.3 * kPeriod * static_cast<double>(k)) + noise(rng);
  return y;
}

}  // namespace

// Straight lines have no acceleration to penalise: a constant and a ramp come back unchanged (to the
// round-off of a solve whose matrix has a condition number of about 1 + 16 mu / h^4 = 1.6e7 at 1 Hz).
TEST(SmoothingFit, StraightLinesPassUnchanged) {
  Eigen::MatrixXd lines(400, 2);
  for (Eigen::Index k = 0; k < lines.rows(); ++k) {
    lines(k, 0) = 0.7;
    lines(k, 1) = -0.3 + 0.002 * static_cast<double>(k);
  }
  const Eigen::MatrixXd fitted = mt::smooth_samples(lines, kPeriod, 1.0);
  EXPECT_LT((fitted - lines).cwiseAbs().maxCoeff(), 1e-8);
}

// The solution is the minimiser: the objective's gradient there, by central differences, vanishes (the
// differences of a quadratic are exact but for round-off: 1e-7 of a gradient whose terms are ~1e-2),
// and a random step either way raises the objective.
TEST(SmoothingFit, MinimisesThePenalisedLeastSquares) {
  const Eigen::VectorXd y = noisy_walk(300, 7);
  const double cutoff = 1.5;
  const Eigen::VectorXd x = mt::smooth_samples(y, kPeriod, cutoff);
  const double step = 1e-4;
  double worst = 0.0;
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    Eigen::VectorXd plus = x, minus = x;
    plus[k] += step;
    minus[k] -= step;
    worst =
        std::max(worst, std::abs(objective(plus, y, kPeriod, cutoff) - objective(minus, y, kPeriod, cutoff)) /
                            (2.0 * step));
  }
  EXPECT_LT(worst, 1e-7);
  std::mt19937 rng(3);
  std::normal_distribution<double> direction(0.0, 1e-3);
  const double at_minimum = objective(x, y, kPeriod, cutoff);
  for (int trial = 0; trial < 5; ++trial) {
    Eigen::VectorXd d(x.size());
    for (Eigen::Index k = 0; k < d.size(); ++k) d[k] = direction(rng);
    EXPECT_GT(objective(x + d, y, kPeriod, cutoff), at_minimum);
    EXPECT_GT(objective(x - d, y, kPeriod, cutoff), at_minimum);
  }
}

// Away from the ends a sinusoid passes with smoothing_gain: half its amplitude at the cutoff, nearly all of
// it well below, and a 20 Hz wobble (the per-frame IK's noise) nearly none. The ends' influence decays
// within a few cutoff periods; the middle of 10 s is measured, to 1e-6 of the amplitude.
TEST(SmoothingFit, SinusoidsPassWithTheGainOfTheCutoff) {
  const double cutoff = 1.0;
  EXPECT_NEAR(mt::smoothing_gain(cutoff, kPeriod, cutoff), 0.5, 1e-3);
  for (const double frequency : {0.25, 0.5, 1.0, 2.0, 20.0}) {
    const Eigen::Index n = 2001;
    Eigen::VectorXd y(n);
    for (Eigen::Index k = 0; k < n; ++k)
      y[k] = std::sin(2.0 * std::numbers::pi * frequency * kPeriod * static_cast<double>(k));
    const Eigen::VectorXd x = mt::smooth_samples(y, kPeriod, cutoff);
    const double gain = mt::smoothing_gain(frequency, kPeriod, cutoff);
    for (Eigen::Index k = 900; k <= 1100; ++k) EXPECT_NEAR(x[k], gain * y[k], 1e-6) << frequency << " Hz";
  }
  EXPECT_GT(mt::smoothing_gain(0.25, kPeriod, cutoff), 0.996);
  EXPECT_LT(mt::smoothing_gain(20.0, kPeriod, cutoff), 1e-5);
}

// A joint that rests on its bound (the reference touches it, the fit overshoots): the bounded fit stays
// within it and bends onto it, where clipping the unbounded fit leaves a velocity jump. On a 0.5 Hz swing of
// 1 rad cut at 0.9 rad: the clipped fit's peak second difference is that jump over one sample (measured 28
// rad/s^2); the bounded fit's stays at the swing's own 0.5 Hz acceleration (1 rad x (pi rad/s)^2 = 9.9
// rad/s^2; measured 9.3), and the troughs, far from the bound, are unchanged.
TEST(SmoothingFit, BoundedFitBendsOntoTheBound) {
  const Eigen::Index n = 2001;
  Eigen::MatrixXd swing(n, 1);
  for (Eigen::Index k = 0; k < n; ++k)
    swing(k, 0) = std::min(0.9, std::sin(2.0 * std::numbers::pi * 0.5 * kPeriod * static_cast<double>(k)));
  const Eigen::VectorXd lower = Eigen::VectorXd::Constant(1, -2.0), upper = Eigen::VectorXd::Constant(1, 0.9);
  const Eigen::MatrixXd bounded = mt::smooth_samples_within(swing, kPeriod, 1.0, lower, upper);
  const Eigen::MatrixXd clipped = mt::smooth_samples(swing, kPeriod, 1.0).cwiseMin(0.9);
  const auto peak = [&](const Eigen::MatrixXd& x) {
    double p = 0.0;
    for (Eigen::Index k = 1; k + 1 < n; ++k)
      p = std::max(p, std::abs(x(k - 1, 0) - 2.0 * x(k, 0) + x(k + 1, 0)) / (kPeriod * kPeriod));
    return p;
  };
  EXPECT_LE(bounded.maxCoeff(), 0.9);
  EXPECT_GT(clipped.maxCoeff(), 0.9 - 1e-12);  // the unbounded fit did overshoot
  EXPECT_GT(peak(clipped), 20.0);
  EXPECT_LT(peak(bounded), 15.0);
  std::cout << "peak second difference: clipped " << peak(clipped) << ", bounded " << peak(bounded)
            << " rad/s^2\n";
  // The troughs, far from the bound, fit as before (to 1e-3 rad: the pinned samples' pull decays there).
  EXPECT_NEAR(bounded.minCoeff(), clipped.minCoeff(), 1e-3);
}

TEST(SmoothingFit, ShortSequencesAndBadArguments) {
  const Eigen::MatrixXd two = Eigen::MatrixXd::Random(2, 3);
  EXPECT_EQ(mt::smooth_samples(two, kPeriod, 1.0), two);
  EXPECT_THROW(mt::smooth_samples(two, 0.0, 1.0), std::invalid_argument);
  EXPECT_THROW(mt::smooth_samples(two, kPeriod, -1.0), std::invalid_argument);
  EXPECT_THROW(mt::smoothing_gain(1.0, kPeriod, std::nan("")), std::invalid_argument);
  EXPECT_THROW(
      mt::smooth_samples_within(two, kPeriod, 1.0, Eigen::VectorXd::Zero(2), Eigen::VectorXd::Ones(3)),
      std::invalid_argument);
}
