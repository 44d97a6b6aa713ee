// The ALM's truncated Newton inner steps (AlmOptions::newton_iterations) on a large-residual least-squares
// problem, where Gauss-Newton converges only linearly: Dennis & Schnabel, "Numerical methods for
// unconstrained optimization and nonlinear equations" (1983), example 10.2.5: r_i = exp(t_i x) - y_i,
// t = (1, 2, 3), y = (2, 4, -4), minimum near x = -0.3719, where the residuals stay large (|r| ~ 4.6).
// With a bound that binds and one that does not, the same optimum, in fewer steps; likewise the sized
// Gauss-Newton steps (AlmOptions::residual_sizing).
#include <gtest/gtest.h>

#include <cmath>

#include "mimic/optim/augmented_lagrangian.hpp"
#include "mimic/optim/sparse.hpp"

namespace mimic::optim {
namespace {

class ExponentialFit : public Problem {
 public:
  explicit ExponentialFit(double lower) : lower_(lower) {}
  int num_variables() const override { return 1; }
  int num_residuals() const override { return 3; }
  void variable_bounds(Eigen::VectorXd& lower, Eigen::VectorXd& upper) const override {
    lower.setConstant(1, lower_);
    upper.setConstant(1, 5.0);
  }
  SparseMatrix residual_jacobian_pattern() const override {
    PatternBuilder b(3, 1);
    for (int i = 0; i < 3; ++i) b.add(i, 0);
    return b.build();
  }
  void evaluate(const Eigen::VectorXd& x, bool jacobians, Evaluation& out) override {
    for (int i = 0; i < 3; ++i) {
      const double t = i + 1.0;
      out.residuals[i] = std::exp(t * x[0]) - kY[i];
      if (jacobians) out.residual_jacobian.valuePtr()[i] = t * std::exp(t * x[0]);
    }
  }
  static constexpr double kY[3] = {2.0, 4.0, -4.0};

 private:
  double lower_;
};

// d/dx 1/2 |r|^2 = sum_i t_i e^{t_i x} (e^{t_i x} - y_i).
double gradient(double x) {
  double g = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double t = i + 1.0;
    g += t * std::exp(t * x) * (std::exp(t * x) - ExponentialFit::kY[i]);
  }
  return g;
}

SolveResult solve(double lower, int newton_iterations, bool sizing = false) {
  ExponentialFit problem(lower);
  AlmOptions options;
  options.stationarity_tolerance = 1e-7;  // Gauss-Newton stalls on rounding near 2e-8
  options.newton_iterations = newton_iterations;
  options.residual_sizing = sizing;
  return solve_augmented_lagrangian(problem, Eigen::VectorXd::Constant(1, 1.0), options);
}

TEST(AlmNewton, ConvergesOnALargeResidualProblemInFewerSteps) {
  const SolveResult gauss_newton = solve(-10.0, 0);
  const SolveResult newton = solve(-10.0, 3);
  ASSERT_EQ(newton.status, SolveStatus::kConverged) << newton.summary();
  ASSERT_EQ(gauss_newton.status, SolveStatus::kConverged) << gauss_newton.summary();
  std::printf("steps: Gauss-Newton %d, Newton %d; x %.12f %.12f\n", gauss_newton.inner_iterations,
              newton.inner_iterations, gauss_newton.x[0], newton.x[0]);
  // The optimum of the book (-0.3719 to its four digits), where the gradient vanishes.
  EXPECT_NEAR(newton.x[0], -0.3719, 1e-4);
  EXPECT_LE(std::abs(gradient(newton.x[0])), 1e-6);  // 1e-7 relative to |grad f(x0)| > 10
  EXPECT_NEAR(newton.x[0], gauss_newton.x[0], 1e-7);
  EXPECT_LT(newton.inner_iterations, gauss_newton.inner_iterations);
}

// A lower bound at -0.2 binds (the unconstrained minimum is below it): the Newton steps keep to it.
TEST(AlmNewton, KeepsABindingBound) {
  const SolveResult newton = solve(-0.2, 3);
  ASSERT_EQ(newton.status, SolveStatus::kConverged) << newton.summary();
  EXPECT_NEAR(newton.x[0], -0.2, 1e-6);
  EXPECT_GT(gradient(newton.x[0]), 0.0);  // the bound's multiplier holds x up
}

// AlmOptions::residual_sizing: the Gauss-Newton matrix's residual block scaled by the secant curvature of the
// last step. In one variable the secant quotient is the curvature itself along the only direction, so the
// steps become secant steps: the same optimum, in fewer steps than Gauss-Newton.
TEST(AlmResidualSizing, ConvergesOnALargeResidualProblemInFewerSteps) {
  const SolveResult gauss_newton = solve(-10.0, 0);
  const SolveResult sized = solve(-10.0, 0, true);
  ASSERT_EQ(sized.status, SolveStatus::kConverged) << sized.summary();
  std::printf("steps: Gauss-Newton %d, sized %d; x %.12f %.12f\n", gauss_newton.inner_iterations,
              sized.inner_iterations, gauss_newton.x[0], sized.x[0]);
  EXPECT_LE(std::abs(gradient(sized.x[0])), 1e-6);  // as the Newton test above
  EXPECT_NEAR(sized.x[0], gauss_newton.x[0], 1e-7);
  EXPECT_LT(sized.inner_iterations, gauss_newton.inner_iterations);
}

TEST(AlmResidualSizing, KeepsABindingBound) {
  const SolveResult sized = solve(-0.2, 0, true);
  ASSERT_EQ(sized.status, SolveStatus::kConverged) << sized.summary();
  EXPECT_NEAR(sized.x[0], -0.2, 1e-6);
  EXPECT_GT(gradient(sized.x[0]), 0.0);
}

// With Newton steps the exact curvature is already in the step: sizing is ignored, the solve is the Newton
// one bit for bit.
TEST(AlmResidualSizing, IsIgnoredWithNewtonSteps) {
  const SolveResult newton = solve(-10.0, 3);
  const SolveResult both = solve(-10.0, 3, true);
  EXPECT_EQ(both.x[0], newton.x[0]);
  EXPECT_EQ(both.inner_iterations, newton.inner_iterations);
}

}  // namespace
}  // namespace mimic::optim
