// A Problem seen through a subset of its inequality rows: everything else (variables, bounds, residuals,
// equalities, objective term) is the full problem's. Used to screen out the many inequalities that are
// nowhere near active (limits checked at 200 Hz) for back ends whose cost grows with every inequality
// they carry (Ipopt).
#pragma once

#include <vector>

#include "mimic/optim/problem.hpp"

namespace mimic::optim {

class InequalitySubset final : public Problem {
 public:
  // `rows`: strictly ascending indices of `full`'s inequalities to keep. `full` must outlive this.
  InequalitySubset(Problem& full, std::vector<int> rows);

  const std::vector<int>& rows() const { return rows_; }
  // The full problem's evaluation from the last evaluate() (all inequality rows).
  const Evaluation& full_evaluation() const { return full_evaluation_; }

  int num_variables() const override { return full_.num_variables(); }
  int num_residuals() const override { return full_.num_residuals(); }
  int num_equalities() const override { return full_.num_equalities(); }
  int num_inequalities() const override { return static_cast<int>(rows_.size()); }
  bool has_objective_term() const override { return full_.has_objective_term(); }
  bool has_objective_hessian() const override { return full_.has_objective_hessian(); }
  void variable_bounds(Eigen::VectorXd& lower, Eigen::VectorXd& upper) const override {
    full_.variable_bounds(lower, upper);
  }
  SparseMatrix residual_jacobian_pattern() const override { return full_evaluation_.residual_jacobian; }
  SparseMatrix equality_jacobian_pattern() const override { return full_evaluation_.equality_jacobian; }
  SparseMatrix inequality_jacobian_pattern() const override { return pattern_; }
  SymmetricMatrix objective_hessian_pattern() const override { return full_.objective_hessian_pattern(); }
  void evaluate(const Eigen::VectorXd& x, bool jacobians, Evaluation& out) override;
  void evaluate_objective_hessian(const Eigen::VectorXd& x, SymmetricMatrix& hessian) override {
    full_.evaluate_objective_hessian(x, hessian);
  }
  std::string describe_constraint(ConstraintKind kind, int index, double value) const override {
    return full_.describe_constraint(kind, kind == ConstraintKind::kInequality ? rows_[index] : index, value);
  }

 private:
  Problem& full_;
  std::vector<int> rows_;
  Evaluation full_evaluation_;
  EvaluationShape full_shape_;
  SparseMatrix pattern_;
};

}  // namespace mimic::optim
