// Issue 15, "both cores": the trajectory problems split their blocks across a ThreadPool, each thread with
// its own SplineProblemData. The Evaluation is identical (bit for bit) with 1, 2 or 3 threads, on the
// retarget problem (both objectives, with the self-collision rows) and on the smoothing problem; and a whole
// retarget (solve, refinements) gives identical joints with 1 and 2 threads.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "mimic/core/thread_pool.hpp"
#include "mimic/geometry/collision_data.hpp"
#include "mimic/model/robot.hpp"
#include "mimic/motion/motion_problem.hpp"
#include "mimic/motion/optimize_motion.hpp"
#include "mimic/motion/smoothing_problem.hpp"
#include "motion/synthetic_reference.hpp"
#include "pipeline/smooth_scenario.hpp"

namespace mimic::motion {
namespace {

void expect_identical(const optim::Evaluation& a, const optim::Evaluation& b) {
  EXPECT_EQ(a.residuals, b.residuals);
  EXPECT_EQ(a.equalities, b.equalities);
  EXPECT_EQ(a.inequalities, b.inequalities);
  for (const auto& [ja, jb] : {std::pair{&a.residual_jacobian, &b.residual_jacobian},
                               std::pair{&a.equality_jacobian, &b.equality_jacobian},
                               std::pair{&a.inequality_jacobian, &b.inequality_jacobian}}) {
    ASSERT_EQ(ja->nonZeros(), jb->nonZeros());
    EXPECT_TRUE(std::equal(ja->valuePtr(), ja->valuePtr() + ja->nonZeros(), jb->valuePtr()));
  }
}

// Evaluates `problem` at x without a pool, then on pools of 2 and 3 threads, with and without the Jacobians
// (the values alone may round differently from those computed with their derivatives, e.g. the smoothing
// problem's torques: each is compared with its own single-thread counterpart), and compares.
void expect_thread_count_irrelevant(SplineProblem& problem, const Eigen::VectorXd& x) {
  std::array<optim::Evaluation, 2> expected = {optim::make_evaluation(problem),
                                               optim::make_evaluation(problem)};
  for (int jacobians = 0; jacobians < 2; ++jacobians)
    problem.evaluate(x, jacobians == 1, expected[jacobians]);
  for (int threads : {2, 3}) {
    core::ThreadPool pool(threads);
    problem.set_thread_pool(&pool);
    for (int jacobians = 1; jacobians >= 0; --jacobians) {
      optim::Evaluation threaded = optim::make_evaluation(problem);
      problem.evaluate(x, jacobians == 1, threaded);
      expect_identical(threaded, expected[jacobians]);
    }
    problem.set_thread_pool(nullptr);
  }
}

Eigen::VectorXd perturbed(Eigen::VectorXd x, double amplitude) {
  std::mt19937 rng(5);
  std::normal_distribution<double> noise(0.0, amplitude);
  for (double& v : x) v += noise(rng);
  return x;
}

class MotionProblemThreads : public ::testing::TestWithParam<Objective> {};

TEST_P(MotionProblemThreads, EvaluationIndependentOfTheThreadCount) {
  const model::Robot robot = model::load_robot(model::default_robot_description_path());
  const MotionInput input = testing::synthetic_reference(robot.model, 1.0);
  ProblemOptions options;
  options.objective = GetParam();
  options.limits.torque_factor = 0.5;
  for (int i = 0; i < input.sample_count(); i += 3) options.torque_samples.push_back(i);
  const auto cmodel = std::make_shared<geometry::CollisionModel>(
      geometry::build_collision_model(robot.model, robot.description));
  options.geometry.collision = cmodel;
  for (int p = 0; p < static_cast<int>(cmodel->pairs.size()); ++p) {
    if (cmodel->pair_name(p).find("HEAD_LINK1") != std::string::npos) options.collision_pairs.push_back(p);
  }
  ASSERT_FALSE(options.collision_pairs.empty());
  MotionProblem problem(robot.model, robot.description, input, options);
  expect_thread_count_irrelevant(problem, perturbed(problem.initial_guess(), 0.05));
}

INSTANTIATE_TEST_SUITE_P(Objectives, MotionProblemThreads,
                         ::testing::Values(Objective::kImitation, Objective::kTorque));

TEST(SmoothingProblemThreads, EvaluationIndependentOfTheThreadCount) {
  const auto scenario = mimic::testing::load_scenario();
  const model::SampledMotion planned = mimic::testing::window(scenario->planned, 300, 440);
  SmoothingOptions options;
  options.limits.torque_factor = 0.9;
  for (int k = 0; k < 141; k += 7) options.torque_samples.push_back(k);
  for (int k = 3; k < 141; k += 20) options.equality_samples.push_back(k);
  SmoothingProblem problem(scenario->model, scenario->feet, planned, options);
  ASSERT_GT(problem.num_equalities(), 0);
  expect_thread_count_irrelevant(problem, perturbed(problem.initial_guess(), 0.01));
}

// The whole retarget: the solver's normal-matrix assembly and the problem's evaluation on 1 and 2 threads.
TEST(RetargetThreads, IdenticalJointsWithOneAndTwoThreads) {
  const model::Model model = testing::load_hrp2();
  const MotionInput input = testing::synthetic_reference(model, 1.5);
  MotionSettings settings;
  settings.limits.torque_factor = 0.6;
  settings.solver.threads = 1;
  const MotionResult one = optimize_motion(model, model::default_robot_description(), input, settings);
  settings.solver.threads = 2;
  const MotionResult two = optimize_motion(model, model::default_robot_description(), input, settings);
  ASSERT_TRUE(one.success) << one.failure;
  EXPECT_EQ(one.total_iterations, two.total_iterations);
  EXPECT_EQ(one.solves, two.solves);
  EXPECT_EQ(one.joints, two.joints);
}

}  // namespace
}  // namespace mimic::motion
