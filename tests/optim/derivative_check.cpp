#include "mimic/optim/derivative_check.hpp"

#include <gtest/gtest.h>

#include "optim/textbook_problems.hpp"

namespace mo = mimic::optim;

namespace {

// HS71 with a wrong entry in the inequality Jacobian (d g / d x3 off by 10%).
class WrongJacobian : public mo::test::Hs71 {
 public:
  void evaluate(const Eigen::VectorXd& x, bool jacobians, mo::Evaluation& out) override {
    Hs71::evaluate(x, jacobians, out);
    if (jacobians) out.inequality_jacobian.valuePtr()[2] *= 1.1;
  }
};

// Rosenbrock residuals whose pattern forgets d r0 / d y... that is, r0 depends on y here but the pattern
// says it does not.
class MissingPatternEntry : public mo::Problem {
 public:
  int num_variables() const override { return 2; }
  int num_residuals() const override { return 1; }
  mo::SparseMatrix residual_jacobian_pattern() const override {
    mo::PatternBuilder b(1, 2);
    b.add(0, 0);
    return b.build();
  }
  void evaluate(const Eigen::VectorXd& x, bool jacobians, mo::Evaluation& out) override {
    out.residuals[0] = x[0] * x[1];
    if (jacobians) out.residual_jacobian.valuePtr()[0] = x[1];
  }
};

}  // namespace

TEST(DerivativeCheck, PassesOnCorrectDerivatives) {
  mo::test::Hs71 hs71;
  const auto a = mo::check_derivatives(hs71, Eigen::Vector4d(1.3, 4.1, 3.7, 1.9));
  EXPECT_TRUE(a.passed) << a.summary();
  EXPECT_EQ(a.checked_entries, 4 * (1 + 1 + 1));  // equality, inequality, objective term per column
  mo::test::Rosenbrock disc({.unit_disc = true});
  const auto b = mo::check_derivatives(disc, Eigen::Vector2d(0.3, -0.7));
  EXPECT_TRUE(b.passed) << b.summary();
  EXPECT_LT(b.max_scaled_error, 1.0);  // 1 is the pass threshold of the scaled error; measured 8.2e-6
}

TEST(DerivativeCheck, FindsAWrongEntry) {
  WrongJacobian p;
  const auto report = mo::check_derivatives(p, Eigen::Vector4d(1.3, 4.1, 3.7, 1.9));
  ASSERT_FALSE(report.passed);
  ASSERT_EQ(report.failures.size(), 1u);
  EXPECT_EQ(report.failures[0].function, "inequality");
  EXPECT_EQ(report.failures[0].row, 0);
  EXPECT_EQ(report.failures[0].column, 2);
  // The numeric entry is a central difference (error measured 1.6e-10 on a derivative of -10.1).
  EXPECT_NEAR(report.failures[0].analytic, 1.1 * report.failures[0].numeric, 1e-8);
  EXPECT_NE(report.summary().find("inequality row 0, x[2]"), std::string::npos) << report.summary();
}

TEST(DerivativeCheck, FindsADerivativeOutsideThePattern) {
  MissingPatternEntry p;
  const auto report = mo::check_derivatives(p, Eigen::Vector2d(2.0, 3.0));
  ASSERT_FALSE(report.passed);
  ASSERT_EQ(report.failures.size(), 1u);
  EXPECT_TRUE(report.failures[0].outside_pattern);
  EXPECT_EQ(report.failures[0].column, 1);
  EXPECT_NEAR(report.failures[0].numeric, 2.0, 1e-9);  // central difference: measured 1.7e-11
}

TEST(DerivativeCheck, ChecksOnlyTheRequestedColumns) {
  WrongJacobian p;
  mo::DerivativeCheckOptions o;
  o.columns = {0, 1, 3};  // the wrong entry is in column 2
  const auto report = mo::check_derivatives(p, Eigen::Vector4d(1.3, 4.1, 3.7, 1.9), o);
  EXPECT_TRUE(report.passed) << report.summary();
  EXPECT_EQ(report.checked_entries, 3 * 3);
}
