#include "mimic/optim/normal_solver.hpp"

namespace mimic::optim {

void NormalSolver::analyze(const SymmetricMatrix& lower) {
  const double n = static_cast<double>(lower.rows());
  const double band_entries = n * (BandedCholesky::bandwidth(lower) + 1.0);
  banded_ =
      lower.rows() >= kMinBandedSize && band_entries <= kBandFill * static_cast<double>(lower.nonZeros());
  if (banded_) {
    sparse_.reset();
    band_.analyze(lower);
  } else {
    sparse_.emplace();
    sparse_->analyzePattern(lower);
  }
}

bool NormalSolver::factorize(const SymmetricMatrix& lower) {
  if (banded_) return band_.factorize(lower);
  sparse_->factorize(lower);
  return sparse_->info() == Eigen::Success && sparse_->vectorD().minCoeff() > 0.0;
}

bool NormalSolver::refactorize(const SymmetricMatrix& lower, int first_changed) {
  if (banded_) return band_.refactorize(lower, first_changed);
  return factorize(lower);
}

void NormalSolver::solve_in_place(Eigen::VectorXd& x) const {
  if (banded_) {
    band_.solve_in_place(x);
  } else {
    x = sparse_->solve(x);
  }
}

}  // namespace mimic::optim
