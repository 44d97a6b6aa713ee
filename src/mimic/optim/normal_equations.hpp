// Gauss-Newton normal matrices with a fixed sparsity pattern:
//
//   H = sum_b A_b^T diag(w_b) A_b  +  s S,
//
// lower triangle, column-major, ready for a sparse Cholesky (Eigen::SimplicialLDLT<.., Lower>). The
// pattern is analysed once from the patterns of the blocks A_b (Jacobians) and of S (e.g. the Hessian
// of a scalar objective term); assemble() then only recomputes values, so the Cholesky's symbolic
// analysis is done once per solve too. No dense matrix of the problem size is ever formed.
//
// Cost of assemble(): rows with the same columns form a group (all the torques at one sample, the x, y, z
// of a hand position, and the same rows at the other samples of the knot interval: a B-spline row touches
// the same control points at every sample between two knots, 20 samples at 200 Hz with 0.1 s knots);
// its Gram matrix is computed densely (Eigen's rank update, vectorised) and merged into H once: about
// (rows k^2 / 2) flops plus k times the entries of H's columns that the group spans (sorted columns merged
// with H's sorted columns, no search). Grouping the samples of an interval (issue 15) divides the merges by
// their number and makes the rank updates large enough for Eigen's matrix kernels: merges per assembly of
// the residual rows, groups of one sample -> of one interval, 8.7 -> 0.44 million on the boxing retarget
// and 6.3 -> 0.31 million on the bar walk's smoothing (where they had been a quarter of its time; the sums
// only change order, i.e. rounding). Rows of weight 0 (inactive inequalities) cost one test, a block without
// a weighted row one sequential scan of its weights (the ALM's model steps add the inequalities alone). Plus
// nnz(H) to clear it unless accumulating. For B-spline problems, whose rows touch one sample's 5 control
// points, H is block-banded and all of this grows linearly with the clip length.
//
// Threads (set_thread_pool): H's columns are cut into ranges of about equal work, each assembled by one
// task from the groups that touch it, in the order of the single-thread loop, merging only its own columns.
// The Gram matrices of the groups that straddle two ranges (a B-spline group spans 5 slots: each cut is
// straddled by the groups of about 4 knot intervals) are computed once beforehand, in parallel, and kept
// (computing them in each range they touch, as before, added a third to the Gram work on 2 threads with 8
// ranges on the bar walk). Every entry of H therefore receives the same sums in the same order whatever the
// thread count: the values are identical.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "mimic/core/thread_pool.hpp"
#include "mimic/optim/problem.hpp"

namespace mimic::optim {

class NormalEquations {
 public:
  // All blocks have the same number of columns n (the number of variables); `extra` (n x n, lower
  // triangle; an entry above the diagonal is mirrored, so give each pair once) may be null. The diagonal is
  // always in the pattern, so that damping can be added.
  NormalEquations(std::span<const SparseMatrix* const> blocks, const SymmetricMatrix* extra);

  int size() const { return n_; }

  // Recomputes the values (or, with `accumulate`, adds to them). blocks[b] must have the structure of
  // the pattern given at construction and weights[b] one entry per row of that block; `extra` must have
  // the structure given at construction, or be null to leave it out.
  void assemble(std::span<const SparseMatrix* const> blocks, std::span<const Eigen::VectorXd* const> weights,
                const SymmetricMatrix* extra = nullptr, double extra_scale = 1.0, bool accumulate = false);
  // The same, for H's columns [first, last) only (the other values untouched), without `extra`: each of
  // those entries receives the sums assemble() gives it, in the same order, so its value is the same bit for
  // bit. For the ALM's model steps, whose active sets change the columns of a few rows at a time. Throws
  // std::invalid_argument unless 0 <= first <= last <= n.
  void assemble_columns(std::span<const SparseMatrix* const> blocks,
                        std::span<const Eigen::VectorXd* const> weights, int first, int last,
                        bool accumulate);

  // Threads for assemble() (null or a pool of size 1: the calling thread only). The pool must outlive its
  // use here.
  void set_thread_pool(core::ThreadPool* pool);

  const SymmetricMatrix& matrix() const { return h_; }
  SymmetricMatrix& matrix() { return h_; }
  // Index into matrix().valuePtr() of diagonal entry i.
  int diagonal_position(int i) const { return h_.outerIndexPtr()[i]; }
  double diagonal(int i) const { return h_.valuePtr()[diagonal_position(i)]; }
  void add_to_diagonal(int i, double value) { h_.valuePtr()[diagonal_position(i)] += value; }

 private:
  // assemble() and assemble_columns(): columns [first, last).
  void assemble_range(std::span<const SparseMatrix* const> blocks,
                      std::span<const Eigen::VectorXd* const> weights, const SymmetricMatrix* extra,
                      double extra_scale, bool accumulate, int first, int last);
  // Rows of one block with identical column lists: group_rows_[block][begin .. begin + rows), ascending.
  struct RowGroup {
    int begin;
    int rows;
    int columns = 0;  // of each of its rows
  };
  // Dense buffers of one thread: the weighted rows of one group (rows x k) and their Gram matrix (k x k).
  struct Scratch {
    std::vector<double> group_rows, gram;
  };
  // A group of a part: its block, its index in groups_[block], and its index in shared_ when it straddles
  // parts (-1 otherwise).
  struct PartGroup {
    int block = 0, group = 0, shared = -1;
  };
  // Columns [first, last) of H and the groups touching them, in the order of the single-thread loop.
  struct Part {
    int first = 0, last = 0;
    std::vector<PartGroup> groups;
  };
  // How a group enters H under the current weights: not at all (no weighted row, no column), by its dense
  // Gram matrix (several rows of positive weight), or row by row (one row, or a negative weight).
  enum class GroupPath { kNone, kGram, kRows };
  // A group that straddles parts: its Gram matrix (k x k, where kGram) and path of the current assembly.
  struct SharedGroup {
    int block = 0, group = 0;
    std::size_t offset = 0;  // into shared_gram_
    GroupPath path = GroupPath::kNone;
  };
  GroupPath group_path(const SparseMatrix& m, const Eigen::VectorXd& w, std::span<const int> rows) const;
  // The lower triangle of the group's Gram matrix sum_r w_r v_r v_r^T (kGram groups) into gram (k x k).
  void compute_gram(const SparseMatrix& m, const Eigen::VectorXd& w, std::span<const int> rows,
                    Scratch& scratch, double* gram) const;
  // Adds the group's contribution to H's columns in [first, last).
  void add_group(const SparseMatrix& m, const Eigen::VectorXd& w, std::span<const int> rows, int first,
                 int last, Scratch& scratch);
  // The same row by row (GroupPath::kRows).
  void add_rows(const SparseMatrix& m, const Eigen::VectorXd& w, std::span<const int> rows, int first,
                int last);
  std::span<const int> group_members(std::size_t block, const RowGroup& group) const {
    return {group_rows_[block].data() + group.begin, static_cast<std::size_t>(group.rows)};
  }
  // H(c_q, c_p) += gram(q, p) for the group's columns c (ascending), p <= q, c_p in [first, last).
  void merge_gram(const int* columns, int k, const double* gram, int gram_stride, int first, int last);

  int n_ = 0;
  std::vector<std::vector<RowGroup>> groups_;                    // per block
  std::vector<std::vector<int>> group_rows_;                     // per block: the rows of its groups
  std::vector<std::vector<std::pair<int, int>>> column_ranges_;  // per block and group: first, last column
                                                                 // (first > last for empty rows)
  std::vector<Scratch> scratch_;                                 // per thread of the pool (one without)
  std::vector<Part> parts_;                                      // with a pool of several threads
  std::vector<SharedGroup> shared_;                              // groups straddling parts
  std::vector<double> shared_gram_;                              // their Gram matrices
  core::ThreadPool* pool_ = nullptr;
  std::vector<char> weighted_;  // per block, in the current assembly: has a row of non-zero weight
  std::vector<Eigen::Index> block_nonzeros_;  // to check that assemble() gets the same blocks
  bool has_extra_ = false;
  std::vector<int> extra_position_;  // where each stored entry of `extra` lands in h_'s values
  SymmetricMatrix h_;
};

}  // namespace mimic::optim
