#include "mimic/optim/normal_solver.hpp"

namespace mimic::optim {

void NormalSolver::analyze(const SymmetricMatrix& lower, core::ThreadPool* pool) {
  pool_ = pool;
  const int band = BandedCholesky::bandwidth(lower);
  const double n = static_cast<double>(lower.rows());
  const double band_entries = n * (band + 1.0);
  banded_ =
      lower.rows() >= kMinBandedSize && band_entries <= kBandFill * static_cast<double>(lower.nonZeros());
  sparse_.reset();
  split_.reset();
  if (banded_ && SplitBandedCholesky::splits(static_cast<int>(lower.rows()), band)) {
    split_.emplace();
    split_->analyze(lower);
  } else if (banded_) {
    band_.analyze(lower);
  } else {
    sparse_.emplace();
    sparse_->analyzePattern(lower);
  }
}

bool NormalSolver::factorize(const SymmetricMatrix& lower) {
  if (split_) return split_->factorize(lower, pool_);
  if (banded_) return band_.factorize(lower);
  sparse_->factorize(lower);
  return sparse_->info() == Eigen::Success && sparse_->vectorD().minCoeff() > 0.0;
}

bool NormalSolver::refactorize(const SymmetricMatrix& lower, int first_changed, int last_changed) {
  if (split_) return split_->refactorize(lower, first_changed, last_changed, pool_);
  if (banded_) return band_.refactorize(lower, first_changed);
  return factorize(lower);
}

void NormalSolver::solve_in_place(Eigen::VectorXd& x) const {
  if (split_) {
    split_->solve_in_place(x, pool_);
  } else if (banded_) {
    band_.solve_in_place(x);
  } else {
    x = sparse_->solve(x);
  }
}

}  // namespace mimic::optim
