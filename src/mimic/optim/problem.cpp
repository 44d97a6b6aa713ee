#include "mimic/optim/problem.hpp"

#include <cstdio>
#include <limits>
#include <stdexcept>
#include <utility>

namespace mimic::optim {

namespace {

SparseMatrix empty_jacobian(int rows, int cols) {
  SparseMatrix m(rows, cols);
  m.makeCompressed();
  return m;
}

void check_jacobian(const SparseMatrix& pattern, int rows, int cols, const char* what) {
  if (pattern.rows() != rows || pattern.cols() != cols) {
    throw std::logic_error(std::string("Problem: ") + what + " pattern is " + std::to_string(pattern.rows()) +
                           " x " + std::to_string(pattern.cols()) + ", expected " + std::to_string(rows) +
                           " x " + std::to_string(cols));
  }
}

}  // namespace

void Problem::variable_bounds(Eigen::VectorXd& lower, Eigen::VectorXd& upper) const {
  lower.setConstant(num_variables(), -std::numeric_limits<double>::infinity());
  upper.setConstant(num_variables(), std::numeric_limits<double>::infinity());
}

SparseMatrix Problem::residual_jacobian_pattern() const {
  return empty_jacobian(num_residuals(), num_variables());
}
SparseMatrix Problem::equality_jacobian_pattern() const {
  return empty_jacobian(num_equalities(), num_variables());
}
SparseMatrix Problem::inequality_jacobian_pattern() const {
  return empty_jacobian(num_inequalities(), num_variables());
}

SymmetricMatrix Problem::objective_hessian_pattern() const {
  SymmetricMatrix m(num_variables(), num_variables());
  m.makeCompressed();
  return m;
}

void Problem::evaluate_objective_hessian(const Eigen::VectorXd&, SymmetricMatrix&) {
  throw std::logic_error("Problem: evaluate_objective_hessian() called but has_objective_hessian() is false");
}

SymmetricMatrix Problem::residual_curvature_pattern() const {
  SymmetricMatrix m(num_variables(), num_variables());
  m.makeCompressed();
  return m;
}

void Problem::evaluate_residual_curvature(const Eigen::VectorXd&, const Eigen::VectorXd&, SymmetricMatrix&) {
  throw std::logic_error(
      "Problem: evaluate_residual_curvature() called but has_residual_curvature() is false");
}

std::string Problem::describe_constraint(ConstraintKind kind, int index, double value) const {
  char text[128];
  switch (kind) {
    case ConstraintKind::kEquality:
      std::snprintf(text, sizeof text, "equality %d: h = %.6g (should be 0)", index, value);
      break;
    case ConstraintKind::kInequality:
      std::snprintf(text, sizeof text, "inequality %d: g = %.6g (should be <= 0)", index, value);
      break;
    case ConstraintKind::kLowerBound:
      std::snprintf(text, sizeof text, "x[%d] below its lower bound by %.6g", index, value);
      break;
    case ConstraintKind::kUpperBound:
      std::snprintf(text, sizeof text, "x[%d] above its upper bound by %.6g", index, value);
      break;
  }
  return text;
}

void swap(Evaluation& a, Evaluation& b) noexcept {
  a.residuals.swap(b.residuals);
  a.equalities.swap(b.equalities);
  a.inequalities.swap(b.inequalities);
  std::swap(a.objective_term, b.objective_term);
  a.objective_gradient.swap(b.objective_gradient);
  a.residual_jacobian.swap(b.residual_jacobian);
  a.equality_jacobian.swap(b.equality_jacobian);
  a.inequality_jacobian.swap(b.inequality_jacobian);
}

Evaluation make_evaluation(const Problem& problem) {
  const int n = problem.num_variables();
  Evaluation e;
  e.residuals.setZero(problem.num_residuals());
  e.equalities.setZero(problem.num_equalities());
  e.inequalities.setZero(problem.num_inequalities());
  e.objective_gradient.setZero(n);
  e.residual_jacobian = problem.residual_jacobian_pattern();
  e.equality_jacobian = problem.equality_jacobian_pattern();
  e.inequality_jacobian = problem.inequality_jacobian_pattern();
  check_jacobian(e.residual_jacobian, problem.num_residuals(), n, "residual Jacobian");
  check_jacobian(e.equality_jacobian, problem.num_equalities(), n, "equality Jacobian");
  check_jacobian(e.inequality_jacobian, problem.num_inequalities(), n, "inequality Jacobian");
  for (SparseMatrix* m : {&e.residual_jacobian, &e.equality_jacobian, &e.inequality_jacobian}) {
    m->makeCompressed();
    m->coeffs().setZero();
  }
  return e;
}

EvaluationShape::EvaluationShape(const Evaluation& e)
    : residuals_(e.residuals.size()),
      equalities_(e.equalities.size()),
      inequalities_(e.inequalities.size()),
      gradient_(e.objective_gradient.size()),
      residual_nnz_(e.residual_jacobian.nonZeros()),
      equality_nnz_(e.equality_jacobian.nonZeros()),
      inequality_nnz_(e.inequality_jacobian.nonZeros()) {}

void EvaluationShape::check(const Evaluation& e) const {
  auto fail = [](const char* what) {
    throw std::logic_error(std::string("Problem::evaluate changed the ") + what +
                           " (sizes and Jacobian structures are fixed)");
  };
  if (e.residuals.size() != residuals_) fail("number of residuals");
  if (e.equalities.size() != equalities_) fail("number of equalities");
  if (e.inequalities.size() != inequalities_) fail("number of inequalities");
  if (e.objective_gradient.size() != gradient_) fail("size of the objective gradient");
  if (!e.residual_jacobian.isCompressed() || e.residual_jacobian.nonZeros() != residual_nnz_) {
    fail("residual Jacobian structure");
  }
  if (!e.equality_jacobian.isCompressed() || e.equality_jacobian.nonZeros() != equality_nnz_) {
    fail("equality Jacobian structure");
  }
  if (!e.inequality_jacobian.isCompressed() || e.inequality_jacobian.nonZeros() != inequality_nnz_) {
    fail("inequality Jacobian structure");
  }
}

}  // namespace mimic::optim
