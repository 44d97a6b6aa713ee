// Cholesky factorisation A = L L^T of a symmetric positive definite matrix whose entries all lie within a
// narrow band of the diagonal (|row - column| <= b), by dense blocks (issue 15).
//
// Why: the normal matrices of the B-spline problems are block-banded in the order of their variables (control
// point slot by slot: a sample's rows touch 5 consecutive slots, so b = 5 x joints - 1) and the band is
// full. A general sparse LDL^T (Eigen's SimplicialLDLT, up-looking, one scalar at a time, with its ordering
// and a permuted copy of the matrix per factorisation) spent most of its time in index work there; the same
// n b^2 / 2 flops done as dense block products (Eigen's matrix kernels) take a third of its time (measured on
// the boxing retarget's normal matrix, n = 3376, b = 79: 2.3 ms against 7.0 ms CPU; on the bar walk's
// smoothing, n = 1190, b = 69: 0.6 ms against 1.8 ms). Its cost is linear in n for a fixed b.
//
// Layout: the columns are cut into blocks of kBlock; block J keeps the dense panel of its columns from its
// first row down to the band's end (rows J0 .. J0 + w + b - 1, w = the block's width), column-major. The
// factorisation is right-looking by blocks: dense LLT of the diagonal block, triangular solve of the panel
// below it, then the panel's outer product subtracted from the next blocks' panels it overlaps.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "mimic/optim/problem.hpp"

namespace mimic::optim {

class BandedCholesky {
 public:
  // Columns per dense block: measured best at 16 on both matrices above (8 .. 48 tried).
  static constexpr int kBlock = 16;

  // The lower bandwidth max(row - column) of a lower-triangular pattern (compressed, column-major).
  static int bandwidth(const SymmetricMatrix& lower);

  // Prepares the layout for matrices with the pattern of `lower` (its lower triangle, compressed).
  void analyze(const SymmetricMatrix& lower);
  // The same for a matrix that is part of a larger one (split_banded_cholesky.hpp's halves): value k of
  // `pattern` is value source[k] of the matrix with `source_size` values that factorize() then gets. The
  // values are read from there directly, without a copy of the part.
  void analyze(const SymmetricMatrix& pattern, std::vector<int> source, std::size_t source_size);
  // Factorises `lower` (the pattern given to analyze, other values). False when the matrix is not
  // (numerically) positive definite: a pivot <= 0 or not finite; the factor is then unusable.
  bool factorize(const SymmetricMatrix& lower);
  // The same for a `lower` that equals the last successfully factorised matrix in its columns before
  // `first_changed` (the ALM's active-set loop: a row entering or leaving the active set changes the columns
  // of its support only). The factor's panels before the one holding that column are kept; the later ones
  // are reloaded and get the earlier panels' updates again, in the same order as factorize() does them, so
  // the factor is bitwise the one factorize() computes, at (n - first_changed) / n of its cost. Without a
  // usable previous factor this is factorize().
  bool refactorize(const SymmetricMatrix& lower, int first_changed);
  // x := A^-1 x with the last successful factorisation.
  void solve_in_place(Eigen::VectorXd& x) const;
  // Its two halves: x := L^-1 x, and x := L^-T x (split_banded_cholesky.hpp joins two factors between them).
  void solve_lower_in_place(Eigen::Ref<Eigen::VectorXd> x) const;
  void solve_upper_in_place(Eigen::Ref<Eigen::VectorXd> x) const;
  // The last `k` x `k` diagonal block of L (zero above its diagonal), k <= size().
  Eigen::MatrixXd trailing_factor(int k) const;

  int size() const { return n_; }

 private:
  struct Panel {
    int first;           // its first column (= first row)
    int width;           // columns
    int height;          // rows: width + the band below, cut at n
    std::size_t offset;  // into storage_
  };
  Eigen::Map<Eigen::MatrixXd> panel(const Panel& p) {
    return {storage_.data() + p.offset, p.height, p.width};
  }
  Eigen::Map<const Eigen::MatrixXd> panel(const Panel& p) const {
    return {storage_.data() + p.offset, p.height, p.width};
  }

  // Reloads the panels from `first_panel` on and factorises them.
  bool factorize_from(const SymmetricMatrix& lower, std::size_t first_panel);

  int n_ = 0;
  int band_ = 0;
  std::vector<Panel> panels_;
  std::vector<double> storage_;
  // A run of values copied into storage_ (copy_runs_: values source .. source + length - 1 of the given
  // matrix to target, target + stride, ..) or of entries zeroed (zero_runs_: target .. target + length - 1),
  // inside one panel, so that a reload from a panel on skips the runs of the kept ones.
  struct Run {
    std::uint32_t source, target;
    std::int32_t stride;
    std::uint32_t length, panel;
  };
  std::vector<Run> copy_runs_;   // in the order of their sources: the given matrix is read front to back
  std::vector<Run> zero_runs_;   // the entries of storage_ outside the pattern
  std::size_t source_size_ = 0;  // the given matrix's number of values
  bool whole_ = true;            // the given matrix is the pattern's (analyze(lower)), not a larger one
  bool factored_ = false;        // the last factorisation succeeded
};

}  // namespace mimic::optim
