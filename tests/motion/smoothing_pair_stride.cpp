// The smoothing problem's pair distance rows besides the torque samples (SmoothingOptions::pair_stride,
// issue 15): 0 keeps them on the torque samples only (the problem as it was); k puts them also on every k-th
// sample, for the pairs near there along the plan (within the safety distance plus collision_activation;
// every sample for a pair of SmoothingOptions::collision_pairs), with the keys the refinement's warm start
// matches rows by, and Jacobians that agree with central finite differences on the samples that have pair
// rows without torque rows. On the window of the shipped walk that smoothing_problem_geometry.cpp uses (a
// right swing: the legs pass each other).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "mimic/geometry/collision_model.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/motion/collision_screening.hpp"
#include "mimic/motion/smoothing_problem.hpp"
#include "mimic/optim/derivative_check.hpp"
#include "mimic/optim/problem.hpp"
#include "motion/smoothing_derivative_check.hpp"
#include "pipeline/smooth_scenario.hpp"

namespace mimic::motion {
namespace {

constexpr int kFirst = 300, kLast = 440;

SmoothingOptions options_with_pairs(const model::Model& model, int samples, int pair_stride) {
  SmoothingOptions options;
  options.limits.torque_factor = 0.9;
  for (int k = 0; k < samples; k += 10) options.torque_samples.push_back(k);
  for (int k = 3; k < samples; k += 20) options.equality_samples.push_back(k);
  options.geometry.collision =
      std::make_shared<const geometry::CollisionModel>(geometry::build_collision_model(
          model, model::load_robot_description(model::default_robot_description_path())));
  options.objective_stride = 3;
  options.pair_stride = pair_stride;
  return options;
}

// The samples with pair rows: the torque samples and the multiples of the stride.
int pair_samples(const SmoothingOptions& options, int samples) {
  std::set<int> all(options.torque_samples.begin(), options.torque_samples.end());
  for (int k = 0; options.pair_stride > 0 && k < samples; k += options.pair_stride) all.insert(k);
  return static_cast<int>(all.size());
}

// The pair rows on the multiples of the stride that are not torque samples: for each such sample, the
// constrained pairs near it along the plan (computed here by the screening's own scan).
int near_pair_rows(const model::Model& model, const model::SampledMotion& planned,
                   const SmoothingOptions& options, const std::vector<int>& pairs) {
  const double below = options.geometry.safety_distance + options.collision_activation;
  const std::set<int> torque(options.torque_samples.begin(), options.torque_samples.end());
  int rows = 0;
  for (const int p : pairs) {
    for (const int n : scan_pairs(model, *options.geometry.collision, {p}, planned.q, below).near_samples)
      rows += n % options.pair_stride == 0 && !torque.contains(n);
  }
  return rows;
}

TEST(SmoothingPairStride, PairRowsOnTheTorqueSamplesAndEveryStrideSample) {
  const auto scenario = testing::load_scenario();
  const model::SampledMotion planned = testing::window(scenario->planned, kFirst, kLast);
  const int samples = static_cast<int>(planned.size());
  const SmoothingOptions zero = options_with_pairs(scenario->model, samples, 0);
  SmoothingOptions without = zero;
  without.geometry.collision.reset();
  const SmoothingProblem reference(scenario->model, scenario->feet, planned, without);
  const SmoothingProblem on_torque_samples(scenario->model, scenario->feet, planned, zero);
  const int pairs = static_cast<int>(on_torque_samples.collision_pairs().size());
  ASSERT_GT(pairs, 0);
  const int geometry_rows = on_torque_samples.num_inequalities() - reference.num_inequalities();
  // Stride 0: pair rows (a lower bound each: one row) on the torque samples only, as before the option.
  EXPECT_EQ(pair_samples(zero, samples), static_cast<int>(zero.torque_samples.size()));
  for (const int stride : {1, 3, 4}) {
    const SmoothingOptions options = options_with_pairs(scenario->model, samples, stride);
    const SmoothingProblem problem(scenario->model, scenario->feet, planned, options);
    EXPECT_EQ(problem.collision_pairs(), on_torque_samples.collision_pairs());
    const int rows = near_pair_rows(scenario->model, planned, options, problem.collision_pairs());
    // Fewer than every pair on every such sample: the far stretches cost nothing.
    EXPECT_GT(rows, 0);
    EXPECT_LT(rows, pairs * (pair_samples(options, samples) - pair_samples(zero, samples)));
    EXPECT_EQ(problem.num_inequalities() - on_torque_samples.num_inequalities(), rows) << "stride " << stride;
    EXPECT_EQ(problem.num_equalities(), on_torque_samples.num_equalities());
    EXPECT_EQ(problem.num_residuals(), on_torque_samples.num_residuals());
    // Every row of the stride-0 problem keeps its key (the refinement's warm start matches by them), and
    // the keys stay unique.
    const std::vector<std::string> small = on_torque_samples.row_keys(terms::RowKind::kInequality);
    const std::vector<std::string> large = problem.row_keys(terms::RowKind::kInequality);
    const std::set<std::string> a(small.begin(), small.end()), b(large.begin(), large.end());
    EXPECT_EQ(b.size(), large.size());
    EXPECT_TRUE(std::includes(b.begin(), b.end(), a.begin(), a.end()));
  }
  EXPECT_GT(geometry_rows, 0);
}

// A pair that the refinement added (SmoothingOptions::collision_pairs: it was not near along the plan)
// gets rows on every multiple of the stride, besides the torque samples.
TEST(SmoothingPairStride, AddedPairsOnEveryStrideSample) {
  const auto scenario = testing::load_scenario();
  const model::SampledMotion planned = testing::window(scenario->planned, kFirst, kLast);
  const int samples = static_cast<int>(planned.size());
  const SmoothingOptions options = options_with_pairs(scenario->model, samples, 3);
  const SmoothingProblem screened(scenario->model, scenario->feet, planned, options);
  const auto joints = screened.legs().joints();
  const std::vector<int> movable =
      movable_pairs(scenario->model, *options.geometry.collision, {joints.begin(), joints.end()});
  const auto far = std::find_if(movable.begin(), movable.end(), [&](int p) {
    return !std::binary_search(screened.collision_pairs().begin(), screened.collision_pairs().end(), p);
  });
  ASSERT_NE(far, movable.end());
  SmoothingOptions added = options;
  added.collision_pairs = {*far};
  const SmoothingProblem problem(scenario->model, scenario->feet, planned, added);
  EXPECT_EQ(problem.num_inequalities() - screened.num_inequalities(), pair_samples(options, samples));
}

// The same values on the rows both problems have: the pair rows at a torque sample do not depend on the
// stride (the row sets differ only by which samples have the pair term).
TEST(SmoothingPairStride, SharedRowsHaveTheSameValues) {
  const auto scenario = testing::load_scenario();
  const model::SampledMotion planned = testing::window(scenario->planned, kFirst, kLast);
  const int samples = static_cast<int>(planned.size());
  SmoothingProblem zero(scenario->model, scenario->feet, planned,
                        options_with_pairs(scenario->model, samples, 0));
  SmoothingProblem every(scenario->model, scenario->feet, planned,
                         options_with_pairs(scenario->model, samples, 1));
  Eigen::VectorXd x = zero.initial_guess();
  for (Eigen::Index i = 0; i < x.size(); ++i) x[i] += 0.02 * std::sin(1.3 * static_cast<double>(i) + 0.1);
  optim::Evaluation a = optim::make_evaluation(zero), b = optim::make_evaluation(every);
  zero.evaluate(x, false, a);
  every.evaluate(x, false, b);
  EXPECT_EQ(a.objective(), b.objective());
  EXPECT_EQ(a.equalities, b.equalities);
  const std::vector<std::string> keys_a = zero.row_keys(terms::RowKind::kInequality);
  const std::vector<std::string> keys_b = every.row_keys(terms::RowKind::kInequality);
  std::size_t j = 0;
  for (std::size_t i = 0; i < keys_a.size(); ++i) {
    while (j < keys_b.size() && keys_b[j] != keys_a[i]) ++j;
    ASSERT_LT(j, keys_b.size()) << keys_a[i];
    EXPECT_EQ(a.inequalities[static_cast<Eigen::Index>(i)], b.inequalities[static_cast<Eigen::Index>(j)])
        << keys_a[i];
  }
}

TEST(SmoothingPairStride, JacobiansMatchFiniteDifferences) {
  const auto scenario = testing::load_scenario();
  const model::SampledMotion planned = testing::window(scenario->planned, kFirst, kLast);
  SmoothingProblem problem(scenario->model, scenario->feet, planned,
                           options_with_pairs(scenario->model, static_cast<int>(planned.size()), 1));
  const optim::DerivativeCheckReport report =
      testing::check_smoothing_derivatives(problem, testing::away_from_plan(problem));
  EXPECT_TRUE(report.passed) << report.summary();
}

}  // namespace
}  // namespace mimic::motion
