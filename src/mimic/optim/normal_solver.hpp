// The linear solver of the Gauss-Newton normal equations H d = -g (H symmetric positive definite, given
// as its lower triangle with a fixed pattern): the dense-block banded Cholesky (banded_cholesky.hpp) when H's
// band is (nearly) full, as for the B-spline problems in their variable order; otherwise Eigen's sparse
// LDL^T with an AMD ordering, for patterns whose band would be mostly zeros (a few far off-diagonal entries).
//
// The choice is made once per pattern by analyze(): banded when the matrix has at least kMinBandedSize rows
// and the band's storage, n (b + 1), is at most kBandFill times the pattern's entries. Both refuse a matrix
// that is not numerically positive definite.
#pragma once

#include <Eigen/SparseCholesky>
#include <optional>

#include "mimic/optim/banded_cholesky.hpp"
#include "mimic/optim/problem.hpp"

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

  void analyze(const SymmetricMatrix& lower);
  // False when `lower` is not numerically positive definite (the factor is then unusable).
  bool factorize(const SymmetricMatrix& lower);
  // The same for a `lower` that equals the last factorised matrix in its columns before `first_changed`:
  // the banded factor keeps its part before that column (BandedCholesky::refactorize, bitwise the same
  // factor); the sparse LDL^T factorises anew.
  bool refactorize(const SymmetricMatrix& lower, int first_changed);
  // x := H^-1 x with the last successful factorisation.
  void solve_in_place(Eigen::VectorXd& x) const;
  bool banded() const { return banded_; }

 private:
  bool banded_ = false;
  BandedCholesky band_;
  std::optional<Eigen::SimplicialLDLT<SymmetricMatrix, Eigen::Lower, Eigen::AMDOrdering<int>>> sparse_;
};

}  // namespace mimic::optim
