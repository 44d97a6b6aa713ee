// CurvatureProduct (S(x; w) v = sum_i w_i Hess c_i(x) v by a forward difference of the analytic Jacobians)
// against the exact Hessians of small problems written by hand, and against central differences of the
// analytic gradient on the motion problem (tests/motion/curvature_product_motion.cpp).
#include "mimic/optim/curvature_product.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "mimic/optim/sparse.hpp"
#include "optim/textbook_problems.hpp"

namespace mimic::optim {
namespace {

// r = (x0^2 x1, sin(x1) x2), h = x0 x2 - 1, g = exp(x1) + x2^3: every Hessian known in closed form.
class Curved : public Problem {
 public:
  int num_variables() const override { return 3; }
  int num_residuals() const override { return 2; }
  int num_equalities() const override { return 1; }
  int num_inequalities() const override { return 1; }
  SparseMatrix residual_jacobian_pattern() const override { return dense(2); }
  SparseMatrix equality_jacobian_pattern() const override { return dense(1); }
  SparseMatrix inequality_jacobian_pattern() const override { return dense(1); }
  void evaluate(const Eigen::VectorXd& x, bool jacobians, Evaluation& out) override {
    out.residuals << x[0] * x[0] * x[1], std::sin(x[1]) * x[2];
    out.equalities << x[0] * x[2] - 1.0;
    out.inequalities << std::exp(x[1]) + x[2] * x[2] * x[2];
    if (!jacobians) return;
    Eigen::Map<Eigen::Matrix<double, 2, 3, Eigen::RowMajor>>(out.residual_jacobian.valuePtr())
        << 2.0 * x[0] * x[1],
        x[0] * x[0], 0.0, 0.0, std::cos(x[1]) * x[2], std::sin(x[1]);
    Eigen::Map<Eigen::RowVector3d>(out.equality_jacobian.valuePtr()) << x[2], 0.0, x[0];
    Eigen::Map<Eigen::RowVector3d>(out.inequality_jacobian.valuePtr()) << 0.0, std::exp(x[1]),
        3.0 * x[2] * x[2];
  }
  // sum_i w_i Hess c_i, dense.
  static Eigen::Matrix3d weighted_hessian(const Eigen::Vector3d& x, const CurvatureWeights& w) {
    Eigen::Matrix3d r0, r1, h, g;
    r0 << 2 * x[1], 2 * x[0], 0, 2 * x[0], 0, 0, 0, 0, 0;
    r1 << 0, 0, 0, 0, -std::sin(x[1]) * x[2], std::cos(x[1]), 0, std::cos(x[1]), 0;
    h << 0, 0, 1, 0, 0, 0, 1, 0, 0;
    g << 0, 0, 0, 0, std::exp(x[1]), 0, 0, 0, 6 * x[2];
    return w.residual[0] * r0 + w.residual[1] * r1 + w.equality[0] * h + w.inequality[0] * g;
  }

 private:
  static SparseMatrix dense(int rows) {
    PatternBuilder b(rows, 3);
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < 3; ++c) b.add(r, c);
    }
    return b.build();
  }
};

// The point the Curved tests use, its evaluation and weights (r, a multiplier estimate for h and g).
struct CurvedPoint {
  Curved problem;
  Eigen::Vector3d x{0.7, -0.4, 1.3};
  Evaluation at = make_evaluation(problem);
  CurvatureWeights w;
  CurvedPoint() {
    problem.evaluate(x, true, at);
    w.residual = at.residuals;
    w.equality = Eigen::VectorXd::Constant(1, 2.5);
    w.inequality = Eigen::VectorXd::Constant(1, 0.8);
  }
};

// The forward difference's error is O(e |v|^2 |third derivatives|) with e ~ 1.5e-8 (1 + |x|) / |v|: a few
// 1e-8 relative on these O(1) functions; 1e-6 leaves room for the rounding of the differences.
constexpr double kTolerance = 1e-6;

TEST(CurvatureProduct, MatchesTheExactHessiansOfResidualsAndConstraints) {
  CurvedPoint p;
  const Eigen::Vector3d& x = p.x;
  CurvatureProduct product(p.problem);
  for (const Eigen::Vector3d& v :
       {Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(0.3, -2.0, 0.5), Eigen::Vector3d(-1e-3, 4e-3, 2e-3)}) {
    Eigen::VectorXd out;
    ASSERT_TRUE(product.apply(x, p.at, p.w, v, out));
    const Eigen::Vector3d exact = Curved::weighted_hessian(x, p.w) * v;
    EXPECT_LE((out - exact).cwiseAbs().maxCoeff(), kTolerance * (1.0 + exact.cwiseAbs().maxCoeff()))
        << out.transpose() << " vs " << exact.transpose();
  }
  EXPECT_EQ(product.evaluations(), 3);
  // The zero direction costs nothing and gives zero.
  Eigen::VectorXd out;
  ASSERT_TRUE(product.apply(x, p.at, p.w, Eigen::Vector3d::Zero(), out));
  EXPECT_EQ(out.cwiseAbs().maxCoeff(), 0.0);
  EXPECT_EQ(product.evaluations(), 3);
}

// Hock-Schittkowski 71: |x|^2 - 40 has Hessian 2 I, 25 - x0 x1 x2 x3 minus the products of pairs; f0 has
// its own Hessian (the ALM's normal matrix holds it), so S leaves it out.
TEST(CurvatureProduct, ConstraintsOfHs71) {
  test::Hs71 problem;
  const Eigen::Vector4d x(1.2, 4.1, 3.7, 1.6);
  Evaluation at = make_evaluation(problem);
  problem.evaluate(x, true, at);
  CurvatureWeights w;
  w.residual.resize(0);
  w.equality = Eigen::VectorXd::Constant(1, -0.6);
  w.inequality = Eigen::VectorXd::Constant(1, 1.7);
  Eigen::Matrix4d g;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      double p = i == j ? 0.0 : -1.0;
      for (int k = 0; k < 4; ++k) {
        if (i != j && k != i && k != j) p *= x[k];
      }
      g(i, j) = p;
    }
  }
  const Eigen::Matrix4d exact = -0.6 * 2.0 * Eigen::Matrix4d::Identity() + 1.7 * g;
  CurvatureProduct product(problem);
  const Eigen::Vector4d v(0.5, -1.0, 0.25, 2.0);
  Eigen::VectorXd out;
  ASSERT_TRUE(product.apply(x, at, w, v, out));
  const Eigen::Vector4d expected = exact * v;
  EXPECT_LE((out - expected).cwiseAbs().maxCoeff(), kTolerance * (1.0 + expected.cwiseAbs().maxCoeff()))
      << out.transpose() << " vs " << expected.transpose();
}

TEST(CurvatureProduct, RejectsMismatchedWeights) {
  CurvedPoint p;
  p.w.residual = Eigen::VectorXd::Zero(1);  // two residuals
  CurvatureProduct product(p.problem);
  Eigen::VectorXd out;
  EXPECT_THROW(product.apply(p.x, p.at, p.w, Eigen::Vector3d::Ones(), out), std::invalid_argument);
}

}  // namespace
}  // namespace mimic::optim
