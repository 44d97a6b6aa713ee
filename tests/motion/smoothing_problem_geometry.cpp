// The smoothing problem's geometry rows (issue 13): their Jacobians against central finite differences,
// which pairs get rows, and the check of a solution that the refinement reads (pipeline/smooth.cpp), on a
// window of the shipped walk with a right swing (1.5 s .. 2.2 s: double support, then left support).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "mimic/geometry/collision_model.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/motion/smoothing_problem.hpp"
#include "mimic/optim/derivative_check.hpp"
#include "motion/smoothing_derivative_check.hpp"
#include "pipeline/smooth_scenario.hpp"

namespace mimic::motion {
namespace {

constexpr int kFirst = 300, kLast = 440;

std::shared_ptr<const geometry::CollisionModel> collision_model(const model::Model& model) {
  return std::make_shared<const geometry::CollisionModel>(geometry::build_collision_model(
      model, model::load_robot_description(model::default_robot_description_path())));
}

SmoothingOptions geometry_options(const model::Model& model, int samples) {
  SmoothingOptions options;
  options.limits.torque_factor = 0.9;
  for (int k = 0; k < samples; k += 7) options.torque_samples.push_back(k);
  for (int k = 3; k < samples; k += 20) options.equality_samples.push_back(k);
  options.geometry.collision = collision_model(model);
  return options;
}

TEST(SmoothingProblemGeometry, JacobiansMatchFiniteDifferences) {
  const auto scenario = testing::load_scenario();
  const model::SampledMotion planned = testing::window(scenario->planned, kFirst, kLast);
  SmoothingOptions options = geometry_options(scenario->model, static_cast<int>(planned.size()));
  SmoothingOptions without = options;
  without.geometry.collision.reset();
  SmoothingProblem problem(scenario->model, scenario->feet, planned, options);
  const SmoothingProblem reference(scenario->model, scenario->feet, planned, without);
  // The walk's legs pass each other within 0.11 m: pair rows on every torque sample; the swing sole's 4
  // corners and 2 tilt rows on every single-support sample. A pair and a corner have a lower bound only
  // (one row each), a tilt row both bounds (two).
  ASSERT_FALSE(problem.collision_pairs().empty());
  int swing_samples = 0;
  for (const model::ContactPhase phase : planned.phases)
    swing_samples += phase != model::ContactPhase::kDoubleSupport;
  ASSERT_GT(swing_samples, 0);
  EXPECT_EQ(problem.num_inequalities() - reference.num_inequalities(),
            static_cast<int>(problem.collision_pairs().size() * options.torque_samples.size()) +
                (4 + 2 * 2) * swing_samples);

  const optim::DerivativeCheckReport report =
      testing::check_smoothing_derivatives(problem, testing::away_from_plan(problem));
  EXPECT_TRUE(report.passed) << report.summary();
}

// A pair that no leg can move relative to the other (both on the upper body) gets no rows whatever its
// distance, and without the activation distance no pair of this walk is near enough to be screened in.
TEST(SmoothingProblemGeometry, ScreeningKeepsMovablePairsNearThePlan) {
  const auto scenario = testing::load_scenario();
  const model::SampledMotion planned = testing::window(scenario->planned, kFirst, kLast);
  SmoothingOptions options = geometry_options(scenario->model, static_cast<int>(planned.size()));
  const SmoothingProblem problem(scenario->model, scenario->feet, planned, options);
  const geometry::CollisionModel& cmodel = *options.geometry.collision;
  std::vector<char> leg_dof(static_cast<std::size_t>(scenario->model.nv), 0);
  for (const int j : problem.legs().joints()) leg_dof[static_cast<std::size_t>(scenario->model.idx_v(j))] = 1;
  for (const int p : problem.collision_pairs()) {
    const geometry::CollisionPair& pair = cmodel.pairs[static_cast<std::size_t>(p)];
    bool movable = false;
    for (const auto* columns : {&pair.first_only, &pair.second_only})
      for (const int c : *columns) movable = movable || leg_dof[static_cast<std::size_t>(c)];
    EXPECT_TRUE(movable) << cmodel.pair_name(p);
  }
  options.collision_activation = 0.0;
  EXPECT_TRUE(SmoothingProblem(scenario->model, scenario->feet, planned, options).collision_pairs().empty());
}

// The check behind the refinement: the plan breaks nothing; a right swing foot pitched toe-down through the
// floor breaks the corner and tilt bounds; the right leg swung across the left breaks a pair, reported as
// unconstrained when the screening left it out.
TEST(SmoothingProblemGeometry, BreachesFindCornersTiltAndUnscreenedPairs) {
  const auto scenario = testing::load_scenario();
  const model::Model& model = scenario->model;
  const model::SampledMotion planned = testing::window(scenario->planned, kFirst, kLast);
  SmoothingOptions options = geometry_options(model, static_cast<int>(planned.size()));
  options.collision_activation = 0.0;
  const SmoothingProblem problem(model, scenario->feet, planned, options);
  const GeometryBreaches plan = problem.geometry_breaches(planned.q);
  EXPECT_TRUE(plan.samples.empty());
  EXPECT_TRUE(plan.unconstrained.empty());
  EXPECT_GT(plan.min_distance, options.geometry.safety_distance);
  // The swing foot leaves the floor flat: its corners at z = 0 to the round-off of the leg's kinematic
  // chain (~1e-17 m measured).
  EXPECT_GE(plan.min_corner_height, -1e-12);
  EXPECT_LT(plan.max_tilt, options.geometry.max_swing_tilt);

  const int swing = 100;  // t = 2.0 s: left support
  ASSERT_EQ(planned.phases[swing], model::ContactPhase::kLeftSupport);
  const int ankle_pitch = model.idx_q(model.joint_index("RLEG_JOINT4"));
  const int hip_roll = model.idx_q(model.joint_index("RLEG_JOINT1"));
  Eigen::MatrixXd q = planned.q;
  q(ankle_pitch, swing) += 0.5;  // toe down by ~0.13 m x sin(0.5)
  const GeometryBreaches pitched = problem.geometry_breaches(q);
  EXPECT_EQ(pitched.samples, std::vector<int>{swing});
  EXPECT_LT(pitched.min_corner_height, 0.0);
  EXPECT_GT(pitched.max_tilt, 0.4);
  EXPECT_TRUE(pitched.unconstrained.empty());

  q = planned.q;
  q(hip_roll, swing) += 0.4;  // the right leg swung towards the left one
  const GeometryBreaches crossed = problem.geometry_breaches(q);
  EXPECT_EQ(crossed.samples, std::vector<int>{swing});
  EXPECT_LT(crossed.min_distance, options.geometry.safety_distance);
  EXPECT_FALSE(crossed.unconstrained.empty());
  // Once constrained, the same pairs break the same sample but are no longer unconstrained.
  options.collision_pairs = crossed.unconstrained;
  const SmoothingProblem constrained(model, scenario->feet, planned, options);
  const GeometryBreaches again = constrained.geometry_breaches(q);
  EXPECT_EQ(again.samples, std::vector<int>{swing});
  EXPECT_TRUE(again.unconstrained.empty());
}

// The keys the refinement matches multipliers by (refine.hpp): one per row, unique, and a problem rebuilt
// with more torque samples holds every key of the smaller one (the rows that existed keep their identity
// although the new samples' rows shift the indices after them).
TEST(SmoothingProblemGeometry, RowKeysOfASmallerProblemAreASubset) {
  const auto scenario = testing::load_scenario();
  const model::SampledMotion planned = testing::window(scenario->planned, kFirst, kLast);
  const SmoothingOptions options = geometry_options(scenario->model, static_cast<int>(planned.size()));
  SmoothingOptions more = options;
  for (int k = 3; k < static_cast<int>(planned.size()); k += 7) more.torque_samples.push_back(k);
  std::sort(more.torque_samples.begin(), more.torque_samples.end());
  const SmoothingProblem small(scenario->model, scenario->feet, planned, options);
  const SmoothingProblem large(scenario->model, scenario->feet, planned, more);
  for (const terms::RowKind kind : {terms::RowKind::kEquality, terms::RowKind::kInequality}) {
    const std::vector<std::string> a = small.row_keys(kind), b = large.row_keys(kind);
    ASSERT_EQ(static_cast<int>(a.size()),
              kind == terms::RowKind::kEquality ? small.num_equalities() : small.num_inequalities());
    ASSERT_EQ(static_cast<int>(b.size()),
              kind == terms::RowKind::kEquality ? large.num_equalities() : large.num_inequalities());
    const std::set<std::string> sa(a.begin(), a.end()), sb(b.begin(), b.end());
    EXPECT_EQ(sa.size(), a.size());
    EXPECT_EQ(sb.size(), b.size());
    EXPECT_TRUE(std::includes(sb.begin(), sb.end(), sa.begin(), sa.end()));
  }
  EXPECT_GT(large.num_inequalities(), small.num_inequalities());
}

}  // namespace
}  // namespace mimic::motion
