// Helpers for fixed-structure sparse Jacobians: building a pattern once, then writing values row by row.
#pragma once

#include <span>
#include <vector>

#include "mimic/core/thread_pool.hpp"
#include "mimic/optim/problem.hpp"

namespace mimic::optim {

// Collects the structural non-zeros of a Jacobian (duplicates allowed) and builds the compressed
// row-major pattern, values zero. Within a row the stored order is ascending column. Entries added in
// strictly increasing (row, column) order, as the trajectory problems add theirs, are laid out directly
// (linear in their number, no sort: issue 15 measured the triplet sort at a tenth of a 40 s retarget);
// any other order goes through Eigen's triplet assembly.
class PatternBuilder {
 public:
  PatternBuilder(int rows, int cols) : rows_(rows), cols_(cols) {}

  void add(int row, int col) {
    if (!entries_.empty() &&
        (row < entries_.back().row || (row == entries_.back().row && col <= entries_.back().col)))
      ordered_ = false;
    entries_.push_back({row, col});
  }
  // Columns first .. first + count - 1 of `row`.
  void add_range(int row, int first, int count) {
    for (int c = first; c < first + count; ++c) add(row, c);
  }
  void add_columns(int row, std::span<const int> cols) {
    for (int c : cols) add(row, c);
  }
  // Throws std::out_of_range on an entry outside rows x cols.
  SparseMatrix build() const;

 private:
  struct Entry {
    int row, col;
  };
  int rows_;
  int cols_;
  std::vector<Entry> entries_;
  bool ordered_ = true;  // strictly increasing (row, col) so far
};

// The stored values / column indices of one row of a compressed row-major matrix, in ascending column.
inline std::span<double> row_values(SparseMatrix& m, int row) {
  const int begin = m.outerIndexPtr()[row];
  return {m.valuePtr() + begin, static_cast<std::size_t>(m.outerIndexPtr()[row + 1] - begin)};
}
inline std::span<const int> row_columns(const SparseMatrix& m, int row) {
  const int begin = m.outerIndexPtr()[row];
  return {m.innerIndexPtr() + begin, static_cast<std::size_t>(m.outerIndexPtr()[row + 1] - begin)};
}

// out += m^T v (m compressed), skipping the rows r with v_r == 0: bitwise Eigen's `out.noalias() +=
// m.transpose() * v` (the same products added in the same order; a skipped row would add zeros) at a cost in
// the rows that count, for the ALM's inequality rows, of which few are active (issue 15).
void add_transposed_product(const SparseMatrix& m, const Eigen::VectorXd& v, Eigen::VectorXd& out);

// out = m v with m's rows split across `pool` (null: the calling thread): each entry is the dot product
// Eigen's serial product computes, in the same order, so the result does not depend on the thread count.
void multiply(const SparseMatrix& m, const Eigen::VectorXd& v, Eigen::VectorXd& out, core::ThreadPool* pool);

// (m v)_row as Eigen's row-major sparse times dense product computes it: the products summed from 0 in
// storage order, then added to the zeroed result (0.0 + sum, which differs from sum for sum = -0).
inline double row_dot(const SparseMatrix& m, int row, const Eigen::VectorXd& v) {
  const int* outer = m.outerIndexPtr();
  const int* cols = m.innerIndexPtr();
  const double* vals = m.valuePtr();
  double sum = 0.0;
  for (int k = outer[row]; k < outer[row + 1]; ++k) sum += vals[k] * v[cols[k]];
  return 0.0 + sum;
}

// out_r = (m v)_r for the rows r listed (ascending or not; other entries of out untouched, out sized to m's
// rows), bitwise multiply()'s entries: the same products summed in the same order. Split across `pool` when
// the listed rows hold enough entries.
void multiply_rows(const SparseMatrix& m, std::span<const int> rows, const Eigen::VectorXd& v,
                   Eigen::VectorXd& out, core::ThreadPool* pool);

// out_r = sum_k |m_rk|, every row's 1-norm (m compressed), with the rows split across `pool`.
void row_abs_sums(const SparseMatrix& m, Eigen::VectorXd& out, core::ThreadPool* pool);

}  // namespace mimic::optim
