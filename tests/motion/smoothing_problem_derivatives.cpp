// The smoothing problem's Jacobians (torque residuals with the ground reaction, support-foot penalty rows,
// support-foot equalities, velocity and torque inequalities) against central finite differences, on a
// window of the shipped walk that holds double support, the switch to left support and single support
// (so every branch of the ground-reaction split is exercised, the double-support share's CoM derivative
// included).
#include <gtest/gtest.h>

#include <cmath>

#include "mimic/core/error.hpp"
#include "mimic/motion/smoothing_problem.hpp"
#include "mimic/optim/derivative_check.hpp"
#include "motion/smoothing_derivative_check.hpp"
#include "pipeline/smooth_scenario.hpp"

namespace mimic::motion {
namespace {

SmoothingOptions window_options(int samples) {
  SmoothingOptions options;
  options.limits.torque_factor = 0.9;
  for (int k = 0; k < samples; k += 7) options.torque_samples.push_back(k);
  for (int k = 3; k < samples; k += 20) options.equality_samples.push_back(k);
  return options;
}

TEST(SmoothingProblem, JacobiansMatchFiniteDifferences) {
  const auto scenario = testing::load_scenario();
  // 1.5 s .. 2.2 s: double support until 1.8 s, then left support (config/jobs/walk_bar_smooth.yaml).
  const model::SampledMotion planned = testing::window(scenario->planned, 300, 440);
  SmoothingProblem problem(scenario->model, scenario->feet, planned, window_options(141));
  ASSERT_GT(problem.num_equalities(), 0);
  ASSERT_GT(problem.num_inequalities(), 0);
  const optim::DerivativeCheckReport report =
      testing::check_smoothing_derivatives(problem, testing::away_from_plan(problem));
  EXPECT_TRUE(report.passed) << report.summary();
  EXPECT_GT(report.checked_entries, 1000);
}

TEST(SmoothingProblem, UnevenSamplesAreAnInputError) {
  const auto scenario = testing::load_scenario();
  model::SampledMotion planned = testing::window(scenario->planned, 0, 100);
  planned.times[50] += 0.002;
  EXPECT_THROW(SmoothingProblem(scenario->model, scenario->feet, planned, {}), InputError);
}

TEST(SmoothingProblem, TooShortForTwoKnotIntervalsIsAnInputError) {
  const auto scenario = testing::load_scenario();
  const model::SampledMotion planned = testing::window(scenario->planned, 0, 30);  // 0.15 s
  EXPECT_THROW(SmoothingProblem(scenario->model, scenario->feet, planned, {}), InputError);
}

}  // namespace
}  // namespace mimic::motion
