// The linear solver of the Gauss-Newton normal equations H d = -g (H symmetric positive definite, given
// as its lower triangle with a fixed pattern): the dense-block banded Cholesky (banded_cholesky.hpp) when H's
// band is (nearly) full, as for the B-spline problems in their variable order; otherwise Eigen's sparse
// LDL^T with an AMD ordering, for patterns whose band would be mostly zeros (a few far off-diagonal entries).
//
// The choice is made once per pattern by analyze(): banded when the matrix has at least kMinBandedSize rows
// and the band's storage, n (b + 1), is at most kBandFill times the pattern's entries; a band long enough
// for two halves (SplitBandedCholesky::splits) is factorised as two halves at once, on two threads of the
// pool given to analyze() (split_banded_cholesky.hpp; the choice does not depend on the pool, so neither do
// the results). All refuse a matrix that is not numerically positive definite.
#pragma once

#include <Eigen/SparseCholesky>
#include <optional>

#include "mimic/core/thread_pool.hpp"
#include "mimic/optim/banded_cholesky.hpp"
#include "mimic/optim/problem.hpp"
#include "mimic/optim/split_banded_cholesky.hpp"

namespace mimic::optim {

class NormalSolver {
 public:
  // The band may hold this many times the pattern's entries: the trajectory problems' normal matrices fill
  // their band (ratio ~1); a band of 2 x the entries still costs less dense than sparse (flops per entry
  // are ~3 x cheaper in dense blocks, banded_cholesky.hpp).
  static constexpr double kBandFill = 2.0;
  // Below this size both factorise in microseconds; small problems (the optim tests' textbook problems) keep
  // the sparse LDL^T and its rounding. Near a minimum the ALM's model step decides "decrease or not" on
  // differences at the rounding of the model's value (alm_subproblem.cpp, model_step), so another
  // factorisation's rounding can change the iteration there: measured on the 20-variable
  // SeparableLeastSquares of tests/optim/augmented_lagrangian.cpp, whose penalty then grew.
  static constexpr int kMinBandedSize = 256;

  // `pool` (may be null; it must outlive this solver's use) runs the split factor's two halves.
  void analyze(const SymmetricMatrix& lower, core::ThreadPool* pool = nullptr);
  // False when `lower` is not numerically positive definite (the factor is then unusable).
  bool factorize(const SymmetricMatrix& lower);
  // The same for a `lower` that equals the last factorised matrix outside rows and columns
  // [first_changed, last_changed]: the banded factor keeps its part before first_changed
  // (BandedCholesky::refactorize), the split one its halves' parts outside that range (bitwise the same
  // factor); the sparse LDL^T factorises anew.
  bool refactorize(const SymmetricMatrix& lower, int first_changed, int last_changed);
  // x := H^-1 x with the last successful factorisation.
  void solve_in_place(Eigen::VectorXd& x) const;
  bool banded() const { return banded_; }
  bool split() const { return split_.has_value(); }

 private:
  bool banded_ = false;
  core::ThreadPool* pool_ = nullptr;
  BandedCholesky band_;
  std::optional<SplitBandedCholesky> split_;
  std::optional<Eigen::SimplicialLDLT<SymmetricMatrix, Eigen::Lower, Eigen::AMDOrdering<int>>> sparse_;
};

}  // namespace mimic::optim
