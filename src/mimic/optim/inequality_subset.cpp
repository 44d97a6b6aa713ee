#include "mimic/optim/inequality_subset.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace mimic::optim {

InequalitySubset::InequalitySubset(Problem& full, std::vector<int> rows)
    : full_(full),
      rows_(std::move(rows)),
      full_evaluation_(make_evaluation(full)),
      full_shape_(full_evaluation_) {
  for (std::size_t k = 0; k < rows_.size(); ++k) {
    if (rows_[k] < 0 || rows_[k] >= full.num_inequalities() || (k > 0 && rows_[k] <= rows_[k - 1])) {
      throw std::invalid_argument(
          "InequalitySubset: rows must be strictly ascending indices of inequalities");
    }
  }
  const SparseMatrix& g = full_evaluation_.inequality_jacobian;
  std::vector<int> outer(rows_.size() + 1, 0);
  for (std::size_t k = 0; k < rows_.size(); ++k) {
    outer[k + 1] = outer[k] + g.outerIndexPtr()[rows_[k] + 1] - g.outerIndexPtr()[rows_[k]];
  }
  pattern_.resize(static_cast<Eigen::Index>(rows_.size()), g.cols());
  pattern_.resizeNonZeros(outer.back());
  std::copy(outer.begin(), outer.end(), pattern_.outerIndexPtr());
  for (std::size_t k = 0; k < rows_.size(); ++k) {
    std::copy(g.innerIndexPtr() + g.outerIndexPtr()[rows_[k]],
              g.innerIndexPtr() + g.outerIndexPtr()[rows_[k] + 1], pattern_.innerIndexPtr() + outer[k]);
  }
  pattern_.coeffs().setZero();
}

void InequalitySubset::evaluate(const Eigen::VectorXd& x, bool jacobians, Evaluation& out) {
  Evaluation& f = full_evaluation_;
  full_.evaluate(x, jacobians, f);
  full_shape_.check(f);
  out.residuals = f.residuals;
  out.equalities = f.equalities;
  out.objective_term = f.objective_term;
  for (std::size_t k = 0; k < rows_.size(); ++k)
    out.inequalities[static_cast<Eigen::Index>(k)] = f.inequalities[rows_[k]];
  if (!jacobians) return;
  out.objective_gradient = f.objective_gradient;
  std::copy(f.residual_jacobian.valuePtr(), f.residual_jacobian.valuePtr() + f.residual_jacobian.nonZeros(),
            out.residual_jacobian.valuePtr());
  std::copy(f.equality_jacobian.valuePtr(), f.equality_jacobian.valuePtr() + f.equality_jacobian.nonZeros(),
            out.equality_jacobian.valuePtr());
  const SparseMatrix& g = f.inequality_jacobian;
  double* target = out.inequality_jacobian.valuePtr();
  for (int row : rows_) {
    target =
        std::copy(g.valuePtr() + g.outerIndexPtr()[row], g.valuePtr() + g.outerIndexPtr()[row + 1], target);
  }
}

}  // namespace mimic::optim
