// The torque objective by the rectangle rule on a coarse grid (ProblemOptions::objective_stride): its
// residuals are the documented sum over groups of samples, its Jacobians and residual curvature match finite
// differences, its constraint rows are those of the dense problem, and on a smooth motion its value is close
// to the dense sum's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "mimic/motion/motion_problem.hpp"
#include "mimic/optim/derivative_check.hpp"
#include "motion/synthetic_reference.hpp"

namespace mimic::motion {
namespace {

struct Fixture {
  explicit Fixture(int stride)
      : model(testing::load_hrp2_with_gripper_payload()),
        input(testing::synthetic_reference(model, 0.8)),
        problem(model, model::default_robot_description(), input, [&] {
          ProblemOptions options;
          options.objective = Objective::kTorque;
          options.objective_stride = stride;
          options.limits.torque_factor = 0.5;
          // Every 7th sample: with stride 5 some are on the objective's grid (residual and limit rows in
          // one set), most are not (limit rows only).
          for (int i = 0; i < input.sample_count(); i += 7) options.torque_samples.push_back(i);
          options.torque_samples.push_back(input.sample_count() - 1);
          return options;
        }()) {}
  model::Model model;
  MotionInput input;
  MotionProblem problem;
};

Eigen::VectorXd perturbed(const MotionProblem& problem, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0.0, 0.1);
  Eigen::VectorXd x = problem.initial_guess();
  for (double& v : x) v += noise(rng);
  return problem.clamped(x);
}

double objective(MotionProblem& problem, const Eigen::VectorXd& x) {
  optim::Evaluation e = optim::make_evaluation(problem);
  problem.evaluate(x, false, e);
  return 0.5 * e.residuals.squaredNorm();
}

// 1/2 sum over the grid {0, k, 2k, ..} and the last sample of (samples nearest to it) dt |tau_active|^2,
// ties to the later grid sample, from the problem's torques (nj x N).
double grid_sum(const MotionProblem& problem, const Eigen::VectorXd& x, int stride, double rate) {
  const Eigen::MatrixXd tau = problem.torques(problem.joint_samples(x));
  const int n = static_cast<int>(tau.cols());
  std::vector<int> grid;
  for (int g = 0; g < n; g += stride) grid.push_back(g);
  if (grid.back() != n - 1) grid.push_back(n - 1);
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    int nearest = grid.front();
    for (const int g : grid)
      if (std::abs(g - i) <= std::abs(nearest - i)) nearest = g;
    for (const int j : problem.active_joints()) sum += 0.5 / rate * tau(j, nearest) * tau(j, nearest);
  }
  return sum;
}

TEST(TorqueQuadrature, ObjectiveIsTheRectangleRuleOnTheGrid) {
  Fixture f(5);
  const Eigen::VectorXd x = perturbed(f.problem, 3);
  const int m = static_cast<int>(f.problem.active_joints().size());
  // 161 samples: the grid 0, 5, .., 160.
  EXPECT_EQ(f.problem.num_residuals(), 33 * m);
  const double expected = grid_sum(f.problem, x, 5, f.input.rate);
  ASSERT_GT(expected, 1.0);
  // The same products and sums in another order: rounding only.
  EXPECT_NEAR(objective(f.problem, x), expected, 1e-12 * expected);
  // Stride 1 is the dense sum.
  Fixture dense(1);
  const double dense_sum = grid_sum(dense.problem, x, 1, dense.input.rate);
  EXPECT_NEAR(objective(dense.problem, x), dense_sum, 1e-12 * dense_sum);
}

TEST(TorqueQuadrature, ConstraintRowsAreTheDenseProblems) {
  Fixture sparse(5), dense(1);
  ASSERT_EQ(sparse.problem.num_inequalities(), dense.problem.num_inequalities());
  const Eigen::VectorXd x = perturbed(dense.problem, 5);
  optim::Evaluation a = optim::make_evaluation(sparse.problem), b = optim::make_evaluation(dense.problem);
  sparse.problem.evaluate(x, true, a);
  dense.problem.evaluate(x, true, b);
  // Limit rows computed in the same way whichever set holds them: identical.
  EXPECT_EQ(a.inequalities, b.inequalities);
  EXPECT_EQ(Eigen::MatrixXd(a.inequality_jacobian), Eigen::MatrixXd(b.inequality_jacobian));
}

TEST(TorqueQuadrature, JacobiansMatchFiniteDifferences) {
  Fixture f(5);
  const Eigen::VectorXd x = perturbed(f.problem, 7);
  const optim::DerivativeCheckReport report = optim::check_derivatives(f.problem, x);
  EXPECT_TRUE(report.passed) << report.summary();
  EXPECT_GT(report.checked_entries, 0);
}

// As tests/motion/residual_curvature.cpp: S(x; w) v against central differences of J_r^T w (h = 1e-5;
// the same 1e-7 of the largest entry, three orders above their truncation and rounding errors).
TEST(TorqueQuadrature, ResidualCurvatureMatchesCentralDifferences) {
  Fixture f(5);
  MotionProblem& problem = f.problem;
  ASSERT_TRUE(problem.has_residual_curvature());
  const Eigen::VectorXd x = perturbed(problem, 11);
  optim::Evaluation at = optim::make_evaluation(problem);
  problem.evaluate(x, true, at);
  const Eigen::VectorXd w = at.residuals;
  optim::SymmetricMatrix s = problem.residual_curvature_pattern();
  problem.evaluate_residual_curvature(x, w, s);
  const auto gradient = [&](const Eigen::VectorXd& y) -> Eigen::VectorXd {
    optim::Evaluation e = optim::make_evaluation(problem);
    problem.evaluate(y, true, e);
    return e.residual_jacobian.transpose() * w;
  };
  std::mt19937 rng(13);
  std::normal_distribution<double> noise(0.0, 0.1);
  const double h = 1e-5;
  for (int k = 0; k < 3; ++k) {
    Eigen::VectorXd v(x.size());
    for (double& c : v) c = noise(rng);
    const Eigen::VectorXd reference = (gradient(x + h * v) - gradient(x - h * v)) / (2.0 * h);
    const double scale = reference.cwiseAbs().maxCoeff();
    ASSERT_GT(scale, 1e-3);
    const Eigen::VectorXd product = s.selfadjointView<Eigen::Lower>() * v;
    EXPECT_LE((product - reference).cwiseAbs().maxCoeff(), 1e-7 * scale) << "scale " << scale;
  }
}

// On the reference fit (2 Hz swings, torques smooth on the 25 ms grid) the rule's error against the dense
// sum, h^2 / 24 |f''| relative to f, is about (2 pi 4 Hz * 0.025 s)^2 / 24 = 1.6 % at worst pointwise
// (tau^2 oscillates at up to twice the swing's frequency) and cancels over the clip; 1 % bounds the sum. A
// rule with the wrong weights (e.g. dt instead of 5 dt) is off by a factor.
TEST(TorqueQuadrature, CloseToTheDenseSumOnASmoothMotion) {
  Fixture sparse(5), dense(1);
  const Eigen::VectorXd x = dense.problem.initial_guess();
  const double reference = objective(dense.problem, x);
  ASSERT_GT(reference, 1.0);
  EXPECT_NEAR(objective(sparse.problem, x), reference, 0.01 * reference);
}

}  // namespace
}  // namespace mimic::motion
