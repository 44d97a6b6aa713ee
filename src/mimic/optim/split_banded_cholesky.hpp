// Cholesky factorisation of a symmetric positive definite band matrix (bandwidth b) as two banded halves
// factorised at the same time, from both ends towards the middle, and a dense b x b separator between them
// (issue 15, "both cores": the banded factorisation was the largest sequential part of the solves, 23 % of
// the torque objective's instructions).
//
// The variables are cut into top = [0, m), separator = [m, m + b) and bottom = [m + b, n). No entry couples
// top and bottom (they are more than b apart), so in the order (top, bottom reversed, separator) the matrix
// is an arrow:
//
//   [ A_t   0    C_t^T ]        L_t = chol(A_t),  L_u = chol(A_u)  (A_u: the bottom block, reversed),
//   [ 0     A_u  C_u^T ]        X_t = C_t L_t^-T,  X_u = C_u L_u^-T,
//   [ C_t   C_u  A_s   ]        L_s = chol(A_s - X_t X_t^T - X_u X_u^T).
//
// C_t touches only the last b columns of the top, and C_u (the bottom reversed, so that its coupling also
// sits at its end) only the last b of the bottom: X_t and X_u are b x b blocks, computed from the halves'
// trailing b x b factors, and the two halves are plain banded factors (banded_cholesky.hpp), which run on
// two threads. The flops are the single band's plus O(b^3) for the separator.
//
// Results do not depend on the pool (the same operations in the same order on 1 or 2 threads). They differ
// from one BandedCholesky of the whole matrix in the rounding only.
//
// refactorize() keeps what did not change: the ALM's active-set loop changes the matrix only inside the
// supports of the rows and bounds that enter or leave, [first_changed, last_changed]: the top is redone from
// first_changed (nothing of it when first_changed >= m), the reversed bottom from n - 1 - last_changed;
// each half bitwise as a full factorisation (BandedCholesky::refactorize), so the whole is too.
//
// X and X X^T of a half are computed on that half's thread right after its factor (the separator's b x b
// products had run on one thread after both: the second core idled through some 0.5 ms of each of the
// torque objective's 1473 factorisations), and kept with it when the half is kept (its coupling lies in its
// own columns, or rows, which the changed range then does not reach). A_s - P_t - P_u with P = X X^T
// formed apart is bitwise the A_s - X X^T Eigen's rank update gives in place (the same accumulations, added
// once: s + (-1) acc = s - acc), and the dense factor of the separator runs after both.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/core/thread_pool.hpp"
#include "mimic/optim/banded_cholesky.hpp"
#include "mimic/optim/problem.hpp"

namespace mimic::optim {

class SplitBandedCholesky {
 public:
  // Each half at least this many times the bandwidth + 1: below, the separator's O(b^3) and the halves'
  // short panels cost more than the second thread saves.
  static constexpr int kMinHalf = 3;

  // Whether an n x n matrix of bandwidth `band` is large enough to split.
  static bool splits(int n, int band);

  // Prepares for matrices with the pattern of `lower` (its lower triangle, compressed; splits() must hold).
  void analyze(const SymmetricMatrix& lower);
  // Factorises `lower` (the analysed pattern, other values), the halves on `pool` (may be null). False when
  // the matrix is not (numerically) positive definite.
  bool factorize(const SymmetricMatrix& lower, core::ThreadPool* pool);
  // The same for a `lower` that equals the last successfully factorised matrix outside rows and columns
  // [first_changed, last_changed] (bitwise the factor factorize() computes).
  bool refactorize(const SymmetricMatrix& lower, int first_changed, int last_changed, core::ThreadPool* pool);
  // x := A^-1 x with the last successful factorisation, the halves on `pool`.
  void solve_in_place(Eigen::VectorXd& x, core::ThreadPool* pool) const;

  int size() const { return n_; }

 private:
  // A value of the separator's dense blocks and where it comes from in `lower`.
  struct DenseEntry {
    int source;  // index into lower.valuePtr()
    int row, col;
  };
  bool factorize_halves(const SymmetricMatrix& lower, int top_from, int bottom_from, core::ThreadPool* pool);
  // X = C L^-T and X X^T of one half from its factor and its coupling's values in `lower`.
  static void couple(const SymmetricMatrix& lower, const std::vector<DenseEntry>& entries,
                     const BandedCholesky& factor, int band, Eigen::MatrixXd& coupling, Eigen::MatrixXd& x,
                     Eigen::MatrixXd& product);

  int n_ = 0;
  Eigen::Index values_ = 0;  // the pattern's
  int band_ = 0;
  int top_ = 0;     // m: the top half's size
  int bottom_ = 0;  // the bottom half's size, n - m - b
  std::vector<DenseEntry> top_coupling_entries_, bottom_coupling_entries_, separator_entries_;
  BandedCholesky top_factor_, bottom_factor_;  // of A_t and A_u, reading their values from the whole matrix
  Eigen::MatrixXd top_coupling_, bottom_coupling_;  // C_t, C_u on the halves' last b columns (b x b)
  Eigen::MatrixXd separator_;                       // A_s, then L_s in its lower triangle
  Eigen::MatrixXd top_x_, bottom_x_;                // X_t, X_u
  Eigen::MatrixXd top_product_, bottom_product_;    // X_t X_t^T, X_u X_u^T (lower triangles)
  bool factored_ = false;
};

}  // namespace mimic::optim
