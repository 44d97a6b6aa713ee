// Textbook problems with known optima, written against mimic::optim::Problem, shared by the solver tests.
#pragma once

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>

#include "mimic/optim/problem.hpp"
#include "mimic/optim/sparse.hpp"

namespace mimic::optim::test {

// Hock & Schittkowski problem 71 (Hock & Schittkowski, "Test examples for nonlinear programming codes",
// 1981; also Ipopt's C++ tutorial example): min x1 x4 (x1 + x2 + x3) + x3 s.t. x1 x2 x3 x4 >= 25,
// |x|^2 = 40, 1 <= x <= 5; x0 = (1, 5, 5, 1), f* = 17.0140173 at (1, 4.7429994, 3.8211503, 1.3794082).
// A general objective (f0 with its Hessian), not a sum of squares.
class Hs71 : public Problem {
 public:
  int num_variables() const override { return 4; }
  int num_equalities() const override { return 1; }
  int num_inequalities() const override { return 1; }
  bool has_objective_term() const override { return true; }
  bool has_objective_hessian() const override { return true; }
  void variable_bounds(Eigen::VectorXd& lower, Eigen::VectorXd& upper) const override {
    lower.setConstant(4, 1.0);
    upper.setConstant(4, 5.0);
  }
  SparseMatrix equality_jacobian_pattern() const override { return dense_row(); }
  SparseMatrix inequality_jacobian_pattern() const override { return dense_row(); }
  SymmetricMatrix objective_hessian_pattern() const override {
    SymmetricMatrix h(4, 4);
    for (int c = 0; c < 4; ++c) {
      for (int r = c; r < 4; ++r) h.insert(r, c) = 0.0;
    }
    h.makeCompressed();
    return h;
  }
  void evaluate(const Eigen::VectorXd& x, bool jacobians, Evaluation& out) override {
    const double s = x[0] + x[1] + x[2];
    out.objective_term = x[0] * x[3] * s + x[2];
    out.equalities[0] = x.squaredNorm() - 40.0;
    out.inequalities[0] = 25.0 - x.prod();
    if (!jacobians) return;
    out.objective_gradient << x[3] * (s + x[0]), x[0] * x[3], x[0] * x[3] + 1.0, x[0] * s;
    Eigen::Map<Eigen::Vector4d>(out.equality_jacobian.valuePtr()) = 2.0 * x;
    Eigen::Map<Eigen::Vector4d>(out.inequality_jacobian.valuePtr()) << -x[1] * x[2] * x[3],
        -x[0] * x[2] * x[3], -x[0] * x[1] * x[3], -x[0] * x[1] * x[2];
  }
  void evaluate_objective_hessian(const Eigen::VectorXd& x, SymmetricMatrix& h) override {
    // Column-major lower triangle: (0,0) (1,0) (2,0) (3,0) (1,1) (2,1) (3,1) (2,2) (3,2) (3,3).
    const double v[10] = {2 * x[3], x[3], x[3], 2 * x[0] + x[1] + x[2], 0, 0, x[0], 0, x[0], 0};
    std::copy(v, v + 10, h.valuePtr());
  }
  std::string describe_constraint(ConstraintKind kind, int index, double value) const override {
    char text[80];
    if (kind == ConstraintKind::kEquality) {
      std::snprintf(text, sizeof text, "|x|^2 = 40 off by %.3g", value);
    } else if (kind == ConstraintKind::kInequality) {
      std::snprintf(text, sizeof text, "x1 x2 x3 x4 >= 25 short by %.3g", value);
    } else {
      return Problem::describe_constraint(kind, index, value);
    }
    return text;
  }

  static constexpr double kOptimum = 17.0140173;

 private:
  static SparseMatrix dense_row() {
    PatternBuilder b(1, 4);
    b.add_range(0, 0, 4);
    return b.build();
  }
};

// Rosenbrock's function as least squares, f = (1 - x)^2 + 100 (y - x^2)^2 = 1/2 |r|^2 with
// r = sqrt(2) (1 - x, 10 (y - x^2)), optionally restricted to the unit disc x^2 + y^2 <= 1 (optimum
// (0.7864, 0.6177), f = 0.045674, the MathWorks fmincon example) and/or by the bound x <= 0.5 (optimum
// (0.5, 0.25), f = 0.25: for fixed x the best y is x^2, leaving (1 - x)^2, decreasing up to the bound).
// With as_objective_term, f is given as f0 with gradient (and optionally Hessian) instead of residuals.
class Rosenbrock : public Problem {
 public:
  struct Options {
    bool unit_disc = false;
    bool bound_x = false;
    bool as_objective_term = false;
    bool with_hessian = true;
  };
  explicit Rosenbrock(Options o) : o_(o) {}

  // The unit-disc optimum to 10 digits (MathWorks prints 4): the stationary point of f(cos t, sin t),
  // solved to 30 digits with mpmath's findroot (t = 0.66574...).
  static constexpr double kDiscOptimum[2] = {0.7864151542, 0.6176983125};
  static constexpr double kDiscObjective = 0.04567480872;

  int num_variables() const override { return 2; }
  int num_residuals() const override { return o_.as_objective_term ? 0 : 2; }
  int num_inequalities() const override { return o_.unit_disc ? 1 : 0; }
  bool has_objective_term() const override { return o_.as_objective_term; }
  bool has_objective_hessian() const override { return o_.as_objective_term && o_.with_hessian; }
  void variable_bounds(Eigen::VectorXd& lower, Eigen::VectorXd& upper) const override {
    Problem::variable_bounds(lower, upper);
    if (o_.bound_x) upper[0] = 0.5;
  }
  SparseMatrix residual_jacobian_pattern() const override {
    PatternBuilder b(num_residuals(), 2);
    if (!o_.as_objective_term) {
      b.add(0, 0);
      b.add(1, 0);
      b.add(1, 1);
    }
    return b.build();
  }
  SparseMatrix inequality_jacobian_pattern() const override {
    PatternBuilder b(num_inequalities(), 2);
    if (o_.unit_disc) b.add_range(0, 0, 2);
    return b.build();
  }
  SymmetricMatrix objective_hessian_pattern() const override {
    SymmetricMatrix h(2, 2);
    h.insert(0, 0) = 0;
    h.insert(1, 0) = 0;
    h.insert(1, 1) = 0;
    h.makeCompressed();
    return h;
  }
  void evaluate(const Eigen::VectorXd& x, bool jacobians, Evaluation& out) override {
    const double a = 1.0 - x[0];
    const double b = 10.0 * (x[1] - x[0] * x[0]);
    if (o_.as_objective_term) {
      out.objective_term = a * a + b * b;
      if (jacobians) out.objective_gradient << -2 * a - 40 * x[0] * b, 20 * b;
    } else {
      out.residuals << kSqrt2 * a, kSqrt2 * b;
      if (jacobians) {
        double* v = out.residual_jacobian.valuePtr();  // (0,0) (1,0) (1,1)
        v[0] = -kSqrt2;
        v[1] = -20.0 * kSqrt2 * x[0];
        v[2] = 10.0 * kSqrt2;
      }
    }
    if (o_.unit_disc) {
      out.inequalities[0] = x.squaredNorm() - 1.0;
      if (jacobians) {
        const auto row = row_values(out.inequality_jacobian, 0);
        row[0] = 2.0 * x[0];
        row[1] = 2.0 * x[1];
      }
    }
  }
  void evaluate_objective_hessian(const Eigen::VectorXd& x, SymmetricMatrix& h) override {
    h.valuePtr()[0] = 2.0 - 400.0 * (x[1] - x[0] * x[0]) + 800.0 * x[0] * x[0];
    h.valuePtr()[1] = -400.0 * x[0];
    h.valuePtr()[2] = 200.0;
  }

 private:
  static constexpr double kSqrt2 = 1.4142135623730951;
  Options o_;
};

// Hock & Schittkowski problem 6: min (1 - x1)^2 s.t. 10 (x2 - x1^2) = 0, x0 = (-1.2, 1), optimum (1, 1),
// f* = 0. Least squares with a nonlinear equality.
class Hs6 : public Problem {
 public:
  int num_variables() const override { return 2; }
  int num_residuals() const override { return 1; }
  int num_equalities() const override { return 1; }
  SparseMatrix residual_jacobian_pattern() const override {
    PatternBuilder b(1, 2);
    b.add(0, 0);
    return b.build();
  }
  SparseMatrix equality_jacobian_pattern() const override {
    PatternBuilder b(1, 2);
    b.add_range(0, 0, 2);
    return b.build();
  }
  void evaluate(const Eigen::VectorXd& x, bool jacobians, Evaluation& out) override {
    out.residuals[0] = std::sqrt(2.0) * (1.0 - x[0]);
    out.equalities[0] = 10.0 * (x[1] - x[0] * x[0]);
    if (!jacobians) return;
    out.residual_jacobian.valuePtr()[0] = -std::sqrt(2.0);
    out.equality_jacobian.valuePtr()[0] = -20.0 * x[0];
    out.equality_jacobian.valuePtr()[1] = 10.0;
  }
};

// min 1/2 sum (x_i - c_i)^2 with lower <= x <= upper: optimum clamp(c, lower, upper), many bounds active.
// Large and sparse (n residuals of one entry each). With sum_constraint, adds the dense equality
// sum x = total and drops the bounds: optimum c + (total - sum c) / n.
class SeparableLeastSquares : public Problem {
 public:
  SeparableLeastSquares(Eigen::VectorXd c, Eigen::VectorXd lower, Eigen::VectorXd upper)
      : c_(std::move(c)), lower_(std::move(lower)), upper_(std::move(upper)) {}
  SeparableLeastSquares(Eigen::VectorXd c, double total)
      : c_(std::move(c)), total_(total), sum_constraint_(true) {}

  int num_variables() const override { return static_cast<int>(c_.size()); }
  int num_residuals() const override { return num_variables(); }
  int num_equalities() const override { return sum_constraint_ ? 1 : 0; }
  void variable_bounds(Eigen::VectorXd& lower, Eigen::VectorXd& upper) const override {
    Problem::variable_bounds(lower, upper);
    if (!sum_constraint_) {
      lower = lower_;
      upper = upper_;
    }
  }
  SparseMatrix residual_jacobian_pattern() const override {
    PatternBuilder b(num_variables(), num_variables());
    for (int i = 0; i < num_variables(); ++i) b.add(i, i);
    return b.build();
  }
  SparseMatrix equality_jacobian_pattern() const override {
    PatternBuilder b(num_equalities(), num_variables());
    if (sum_constraint_) b.add_range(0, 0, num_variables());
    return b.build();
  }
  void evaluate(const Eigen::VectorXd& x, bool jacobians, Evaluation& out) override {
    out.residuals = x - c_;
    if (sum_constraint_) out.equalities[0] = x.sum() - total_;
    if (!jacobians) return;
    out.residual_jacobian.coeffs().setOnes();
    out.equality_jacobian.coeffs().setOnes();
  }
  Eigen::VectorXd solution() const {
    if (sum_constraint_) return c_.array() + (total_ - c_.sum()) / c_.size();
    return c_.cwiseMax(lower_).cwiseMin(upper_);
  }

 private:
  Eigen::VectorXd c_, lower_, upper_;
  double total_ = 0.0;
  bool sum_constraint_ = false;
};

// min 1/2 sum (x_i - c_i)^2 s.t. -1 <= x_i <= 1 written as 2n inequality rows (x_i - 1 <= 0 is row 2i,
// -x_i - 1 <= 0 row 2i + 1): optimum clamp(c, -1, 1). Many inequalities, few active: for screening.
class ManyInequalities : public Problem {
 public:
  explicit ManyInequalities(Eigen::VectorXd c) : c_(std::move(c)) {}
  int num_variables() const override { return static_cast<int>(c_.size()); }
  int num_residuals() const override { return num_variables(); }
  int num_inequalities() const override { return 2 * num_variables(); }
  SparseMatrix residual_jacobian_pattern() const override {
    PatternBuilder b(num_variables(), num_variables());
    for (int i = 0; i < num_variables(); ++i) b.add(i, i);
    return b.build();
  }
  SparseMatrix inequality_jacobian_pattern() const override {
    PatternBuilder b(num_inequalities(), num_variables());
    for (int i = 0; i < num_variables(); ++i) b.add(2 * i, i), b.add(2 * i + 1, i);
    return b.build();
  }
  void evaluate(const Eigen::VectorXd& x, bool jacobians, Evaluation& out) override {
    out.residuals = x - c_;
    for (int i = 0; i < num_variables(); ++i) {
      out.inequalities[2 * i] = x[i] - 1.0;
      out.inequalities[2 * i + 1] = -x[i] - 1.0;
    }
    if (!jacobians) return;
    out.residual_jacobian.coeffs().setOnes();
    for (int i = 0; i < num_variables(); ++i) {
      out.inequality_jacobian.valuePtr()[2 * i] = 1.0;
      out.inequality_jacobian.valuePtr()[2 * i + 1] = -1.0;
    }
  }
  std::string describe_constraint(ConstraintKind kind, int index, double value) const override {
    if (kind != ConstraintKind::kInequality) return Problem::describe_constraint(kind, index, value);
    return "x[" + std::to_string(index / 2) + (index % 2 ? "] >= -1" : "] <= 1");
  }
  Eigen::VectorXd solution() const { return c_.cwiseMax(-1.0).cwiseMin(1.0); }

 private:
  Eigen::VectorXd c_;
};

// Contradictory constraints: min 1/2 |x|^2 s.t. x1 >= 1 and x1 <= 0 (inequalities), and optionally
// x1 + x2 = 1 with x1 + x2 = 3 (equalities). No feasible point exists; the least violation puts x1 at
// 0.5 (violation 0.5 each) and x1 + x2 at 2 (violation 1 each).
class Infeasible : public Problem {
 public:
  explicit Infeasible(bool with_equalities) : with_equalities_(with_equalities) {}
  int num_variables() const override { return 2; }
  int num_residuals() const override { return 2; }
  int num_equalities() const override { return with_equalities_ ? 2 : 0; }
  int num_inequalities() const override { return 2; }
  SparseMatrix residual_jacobian_pattern() const override {
    PatternBuilder b(2, 2);
    b.add(0, 0);
    b.add(1, 1);
    return b.build();
  }
  SparseMatrix equality_jacobian_pattern() const override {
    PatternBuilder b(num_equalities(), 2);
    for (int r = 0; r < num_equalities(); ++r) b.add_range(r, 0, 2);
    return b.build();
  }
  SparseMatrix inequality_jacobian_pattern() const override {
    PatternBuilder b(2, 2);
    b.add(0, 0);
    b.add(1, 0);
    return b.build();
  }
  void evaluate(const Eigen::VectorXd& x, bool jacobians, Evaluation& out) override {
    out.residuals = x;
    out.inequalities << 1.0 - x[0], x[0];
    if (with_equalities_) out.equalities << x.sum() - 1.0, x.sum() - 3.0;
    if (!jacobians) return;
    out.residual_jacobian.coeffs().setOnes();
    out.inequality_jacobian.coeffs() << -1.0, 1.0;
    out.equality_jacobian.coeffs().setOnes();
  }
  std::string describe_constraint(ConstraintKind kind, int index, double value) const override {
    static const char* names[2][2] = {{"x1 >= 1", "x1 <= 0"}, {"x1 + x2 = 1", "x1 + x2 = 3"}};
    char text[80];
    std::snprintf(text, sizeof text, "%s violated by %.3g", names[kind == ConstraintKind::kEquality][index],
                  std::abs(value));
    return text;
  }

 private:
  bool with_equalities_;
};

// Residual undefined for x < 0: r = sqrt(x) - 2, optimum x = 4. From x0 = 100 the Gauss-Newton step
// (-160) lands at negative x, where the problem returns NaN: solvers must step back.
class SqrtResidual : public Problem {
 public:
  int num_variables() const override { return 1; }
  int num_residuals() const override { return 1; }
  SparseMatrix residual_jacobian_pattern() const override {
    PatternBuilder b(1, 1);
    b.add(0, 0);
    return b.build();
  }
  void evaluate(const Eigen::VectorXd& x, bool jacobians, Evaluation& out) override {
    out.residuals[0] = x[0] >= 0.0 ? std::sqrt(x[0]) - 2.0 : std::numeric_limits<double>::quiet_NaN();
    if (jacobians) out.residual_jacobian.coeffs()[0] = 0.5 / std::sqrt(x[0]);
  }
};

}  // namespace mimic::optim::test
