// evaluate is const and keeps its scratch in a MotionProblemData: two threads evaluating one problem with
// one MotionProblemData each give exactly the values and Jacobians of the problem's own entry point.
#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "mimic/motion/motion_problem.hpp"
#include "motion/synthetic_reference.hpp"

namespace mimic::motion {
namespace {

void expect_identical(const optim::Evaluation& a, const optim::Evaluation& b) {
  EXPECT_EQ(a.residuals, b.residuals);
  EXPECT_EQ(a.inequalities, b.inequalities);
  EXPECT_EQ((a.residual_jacobian - b.residual_jacobian).norm(), 0.0);
  EXPECT_EQ((a.inequality_jacobian - b.inequality_jacobian).norm(), 0.0);
}

class ProblemThreads : public ::testing::TestWithParam<Objective> {};

TEST_P(ProblemThreads, TwoDataOnTwoThreadsMatchTheProblemsOwn) {
  const model::Model model = testing::load_hrp2();
  const MotionInput input = testing::synthetic_reference(model, 0.5);
  ProblemOptions options;
  options.objective = GetParam();
  options.limits.torque_factor = 0.5;
  for (int i = 0; i < input.sample_count(); i += 9) options.torque_samples.push_back(i);
  MotionProblem problem(model, model::default_robot_description(), input, options);

  // Two different points, so that a data shared by mistake would mix them.
  std::mt19937 rng(3);
  std::normal_distribution<double> noise(0.0, 0.05);
  std::array<Eigen::VectorXd, 2> x;
  for (Eigen::VectorXd& xi : x) {
    xi = problem.initial_guess();
    for (double& v : xi) v += noise(rng);
  }
  std::array<optim::Evaluation, 2> expected = {optim::make_evaluation(problem),
                                               optim::make_evaluation(problem)};
  for (int k = 0; k < 2; ++k) problem.evaluate(x[k], true, expected[k]);

  std::array<optim::Evaluation, 2> threaded = {optim::make_evaluation(problem),
                                               optim::make_evaluation(problem)};
  std::array<std::unique_ptr<MotionProblemData>, 2> data = {problem.create_data(), problem.create_data()};
  const MotionProblem& shared = problem;
  {
    std::jthread a([&] {
      for (int round = 0; round < 3; ++round) shared.evaluate(x[0], true, threaded[0], *data[0]);
    });
    std::jthread b([&] {
      for (int round = 0; round < 3; ++round) shared.evaluate(x[1], true, threaded[1], *data[1]);
    });
  }
  for (int k = 0; k < 2; ++k) expect_identical(threaded[k], expected[k]);
  EXPECT_NE(threaded[0].residuals, threaded[1].residuals);
}

INSTANTIATE_TEST_SUITE_P(Objectives, ProblemThreads,
                         ::testing::Values(Objective::kImitation, Objective::kTorque));

}  // namespace
}  // namespace mimic::motion
