// The ALM's truncated Newton inner steps (AlmOptions::newton_iterations) on a large-residual least-squares
// problem, where Gauss-Newton converges only linearly: Dennis & Schnabel, "Numerical methods for
// unconstrained optimization and nonlinear equations" (1983), example 10.2.5: r_i = exp(t_i x) - y_i,
// t = (1, 2, 3), y = (2, 4, -4), minimum near x = -0.3719, where the residuals stay large (|r| ~ 4.6).
// With a bound that binds and one that does not, the same optimum, in fewer steps; likewise the sized
// Gauss-Newton steps (AlmOptions::residual_sizing).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "mimic/optim/augmented_lagrangian.hpp"
#include "mimic/optim/sparse.hpp"

namespace mimic::optim {
namespace {

class ExponentialFit : public Problem {
 public:
  explicit ExponentialFit(double lower, bool curvature = false) : lower_(lower), curvature_(curvature) {}
  int num_variables() const override { return 1; }
  // The residuals' second-order term, exact: Hess r_i = t_i^2 e^{t_i x}.
  bool has_residual_curvature() const override { return curvature_; }
  SymmetricMatrix residual_curvature_pattern() const override {
    SymmetricMatrix m(1, 1);
    m.insert(0, 0) = 0.0;
    m.makeCompressed();
    return m;
  }
  void evaluate_residual_curvature(const Eigen::VectorXd& x, const Eigen::VectorXd& weights,
                                   SymmetricMatrix& curvature) override {
    double s = 0.0;
    for (int i = 0; i < 3; ++i) {
      const double t = i + 1.0;
      s += weights[i] * t * t * std::exp(t * x[0]);
    }
    curvature.valuePtr()[0] = s;
    ++curvature_evaluations;
  }
  int curvature_evaluations = 0;
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
  bool curvature_;
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

SolveResult solve(double lower, int newton_iterations, bool sizing = false, bool curvature = false,
                  int refresh = 1) {
  ExponentialFit problem(lower, curvature);
  AlmOptions options;
  options.stationarity_tolerance = 1e-7;  // Gauss-Newton stalls on rounding near 2e-8
  options.newton_iterations = newton_iterations;
  options.residual_sizing = sizing;
  options.residual_curvature = curvature;
  options.residual_curvature_refresh = refresh;
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

// AlmOptions::residual_curvature: the exact second-order term in the normal matrix (Newton steps, here in one
// variable plain Newton safeguarded by the damping): the same optimum in fewer steps than Gauss-Newton, and
// no more than the truncated Newton steps above (which, in one variable, solve the same model). (The sized
// steps take 9: secant steps, fast on this one-dimensional problem.) With a refresh of 3 the term is lagged
// by up to 2 steps: the same optimum, in no more steps than Gauss-Newton (the term of x0 = 1, where the
// residuals are large, is far too strong for the next two steps).
TEST(AlmResidualCurvature, ConvergesOnALargeResidualProblemInFewerSteps) {
  const SolveResult gauss_newton = solve(-10.0, 0);
  const SolveResult exact = solve(-10.0, 0, false, true);
  const SolveResult lagged = solve(-10.0, 0, false, true, 3);
  for (const SolveResult* r : {&exact, &lagged}) {
    ASSERT_EQ(r->status, SolveStatus::kConverged) << r->summary();
    EXPECT_LE(std::abs(gradient(r->x[0])), 1e-6);  // as the Newton test above
    EXPECT_NEAR(r->x[0], gauss_newton.x[0], 1e-7);
  }
  std::printf("steps: Gauss-Newton %d, exact Newton %d, lagged %d\n", gauss_newton.inner_iterations,
              exact.inner_iterations, lagged.inner_iterations);
  EXPECT_LT(exact.inner_iterations, gauss_newton.inner_iterations);
  EXPECT_LE(exact.inner_iterations, solve(-10.0, 3).inner_iterations);
  EXPECT_LE(lagged.inner_iterations, gauss_newton.inner_iterations);
}

TEST(AlmResidualCurvature, KeepsABindingBound) {
  const SolveResult exact = solve(-0.2, 0, false, true);
  ASSERT_EQ(exact.status, SolveStatus::kConverged) << exact.summary();
  EXPECT_NEAR(exact.x[0], -0.2, 1e-6);
  EXPECT_GT(gradient(exact.x[0]), 0.0);
}

// The term depends on x and the residuals only, not on the multipliers or the penalty that change between
// inner solves: the refresh counts accepted steps across them. With a refresh longer than the whole solve,
// one evaluation serves every outer iteration of a solve that needs several (the binding bound's multiplier
// is built up over them); evaluating it anew at each inner solve would take one per outer iteration.
TEST(AlmResidualCurvature, RefreshCountsStepsAcrossInnerSolves) {
  ExponentialFit problem(-0.2, true);
  AlmOptions options;
  options.stationarity_tolerance = 1e-7;
  options.residual_curvature = true;
  options.residual_curvature_refresh = 1000;
  const SolveResult r = solve_augmented_lagrangian(problem, Eigen::VectorXd::Constant(1, 1.0), options);
  ASSERT_EQ(r.status, SolveStatus::kConverged) << r.summary();
  EXPECT_NEAR(r.x[0], -0.2, 1e-6);
  ASSERT_GT(r.iterations, 1);
  EXPECT_EQ(problem.curvature_evaluations, 1);
}

// A problem without the term (has_residual_curvature() false) runs its Gauss-Newton steps, bit for bit.
TEST(AlmResidualCurvature, IsIgnoredWithoutTheTerm) {
  ExponentialFit problem(-10.0, false);
  AlmOptions options;
  options.stationarity_tolerance = 1e-7;
  options.residual_curvature = true;
  const SolveResult with = solve_augmented_lagrangian(problem, Eigen::VectorXd::Constant(1, 1.0), options);
  const SolveResult without = solve(-10.0, 0);
  EXPECT_EQ(with.x[0], without.x[0]);
  EXPECT_EQ(with.inner_iterations, without.inner_iterations);
}

}  // namespace
}  // namespace mimic::optim
