// The smoothing problem's coarser quadrature of the torque objective (SmoothingOptions::objective_stride,
// issue 15): which samples are the nodes and how many samples each stands for (objective_weights), that
// the problem's objective is then exactly the weighted sum of the every-sample problem's torque terms
// (the feet's penalty rows and every constraint unchanged), and its Jacobians against finite differences.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "mimic/motion/smoothing_problem.hpp"
#include "mimic/optim/derivative_check.hpp"
#include "mimic/optim/problem.hpp"
#include "motion/smoothing_derivative_check.hpp"
#include "pipeline/smooth_scenario.hpp"

namespace mimic::motion {
namespace {

TEST(ObjectiveWeights, StrideOneIsEverySampleOnce) {
  EXPECT_EQ(objective_weights(5, 1), std::vector<int>({1, 1, 1, 1, 1}));
}

TEST(ObjectiveWeights, EachSampleGoesToItsNearestNode) {
  // Nodes 0, 4, 8: samples 0..2 -> 0 (2 is a tie: the earlier node), 3..6 -> 4, 7..9 -> 8 (9 is after the
  // last node).
  EXPECT_EQ(objective_weights(10, 4), std::vector<int>({3, 0, 0, 0, 4, 0, 0, 0, 3, 0}));
  // Nodes 0, 5, 10: 0..2 -> 0, 3..7 -> 5, 8..11 -> 10.
  EXPECT_EQ(objective_weights(12, 5), std::vector<int>({3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 4, 0}));
}

TEST(ObjectiveWeights, CountsAddUpToTheSamples) {
  for (const int samples : {1, 2, 7, 141, 1741})
    for (const int stride : {1, 2, 3, 5, 10}) {
      const std::vector<int> w = objective_weights(samples, stride);
      EXPECT_EQ(std::accumulate(w.begin(), w.end(), 0), samples) << samples << " " << stride;
      for (int n = 0; n < samples; ++n)
        EXPECT_EQ(w[static_cast<std::size_t>(n)] > 0, n % stride == 0)
            << samples << " " << stride << " " << n;
    }
}

TEST(ObjectiveWeights, StrideBelowOneIsRejected) {
  EXPECT_THROW(objective_weights(10, 0), std::invalid_argument);
}

struct Window {
  std::unique_ptr<testing::Scenario> scenario = testing::load_scenario();
  // 1.5 s .. 2.2 s: double support until 1.8 s, then left support (config/jobs/walk_bar_smooth.yaml).
  model::SampledMotion planned = testing::window(scenario->planned, 300, 440);
  SmoothingOptions options(int stride) const {
    SmoothingOptions o;
    o.limits.torque_factor = 0.9;
    for (int k = 0; k < 141; k += 7) o.torque_samples.push_back(k);
    for (int k = 3; k < 141; k += 20) o.equality_samples.push_back(k);
    o.objective_stride = stride;
    return o;
  }
};

// With stride k the objective differs from the every-sample one by exactly the torque terms the nodes'
// weights add or drop: 1/2 |r_1|^2 - 1/2 |r_k|^2 = 1/2 sum_n (1 - c_n) dt |tau_n|^2, with tau from
// torques() (the objective's own torques); the constraints are the same rows with the same values.
TEST(SmoothingObjectiveQuadrature, ObjectiveIsTheWeightedTorqueSum) {
  Window w;
  const int stride = 5;
  SmoothingProblem every(w.scenario->model, w.scenario->feet, w.planned, w.options(1));
  SmoothingProblem coarse(w.scenario->model, w.scenario->feet, w.planned, w.options(stride));
  const int n = static_cast<int>(w.planned.size());
  const std::vector<int> c = objective_weights(n, stride);
  const int nodes = static_cast<int>(std::count_if(c.begin(), c.end(), [](int k) { return k > 0; }));
  EXPECT_EQ(every.num_residuals() - coarse.num_residuals(), w.scenario->model.nj * (n - nodes));
  ASSERT_EQ(every.num_equalities(), coarse.num_equalities());
  ASSERT_EQ(every.num_inequalities(), coarse.num_inequalities());

  const Eigen::VectorXd x = testing::away_from_plan(every);
  optim::Evaluation a = optim::make_evaluation(every), b = optim::make_evaluation(coarse);
  every.evaluate(x, false, a);
  coarse.evaluate(x, false, b);
  EXPECT_EQ(a.equalities, b.equalities);
  EXPECT_EQ(a.inequalities, b.inequalities);

  const Eigen::MatrixXd tau = every.torques(x);
  const double dt = w.planned.times[1] - w.planned.times[0];
  double expected = 0.0, torque_term = 0.0;
  for (int k = 0; k < n; ++k) {
    expected += 0.5 * (1.0 - c[static_cast<std::size_t>(k)]) * dt * tau.col(k).squaredNorm();
    torque_term += 0.5 * dt * tau.col(k).squaredNorm();
  }
  ASSERT_GT(torque_term, 0.0);
  const double difference = 0.5 * a.residuals.squaredNorm() - 0.5 * b.residuals.squaredNorm();
  // The expected difference is only the quadrature's error (small: the torques are smooth), so the
  // tolerance is relative to the torque term itself: both sides sum ~1e3 terms in double precision
  // (rounding ~1e-13 relative), while a wrong weight (e.g. sqrt(dt) at the nodes) would be off by
  // ~(k - 1) / k of the torque term.
  EXPECT_NEAR(difference, expected, 1e-9 * torque_term);
}

TEST(SmoothingObjectiveQuadrature, JacobiansMatchFiniteDifferences) {
  Window w;
  SmoothingProblem problem(w.scenario->model, w.scenario->feet, w.planned, w.options(5));
  const Eigen::VectorXd x = testing::away_from_plan(problem);
  const optim::DerivativeCheckReport report = testing::check_smoothing_derivatives(problem, x);
  EXPECT_TRUE(report.passed) << report.summary();
  EXPECT_GT(report.checked_entries, 1000);
}

}  // namespace
}  // namespace mimic::motion
