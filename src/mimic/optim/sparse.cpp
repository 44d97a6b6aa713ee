#include "mimic/optim/sparse.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace mimic::optim {

SparseMatrix PatternBuilder::build() const {
  for (const Entry& e : entries_) {
    if (e.row < 0 || e.row >= rows_ || e.col < 0 || e.col >= cols_) {
      throw std::out_of_range("PatternBuilder: entry (" + std::to_string(e.row) + ", " +
                              std::to_string(e.col) + ") outside " + std::to_string(rows_) + " x " +
                              std::to_string(cols_));
    }
  }
  SparseMatrix m(rows_, cols_);
  if (ordered_) {
    // Already the compressed layout: count the rows' entries, copy the columns.
    m.resizeNonZeros(static_cast<Eigen::Index>(entries_.size()));
    int* outer = m.outerIndexPtr();
    std::fill(outer, outer + rows_ + 1, 0);
    for (std::size_t k = 0; k < entries_.size(); ++k) {
      ++outer[entries_[k].row + 1];
      m.innerIndexPtr()[k] = entries_[k].col;
    }
    for (int r = 0; r < rows_; ++r) outer[r + 1] += outer[r];
    m.coeffs().setZero();
    return m;
  }
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(entries_.size());
  for (const Entry& e : entries_) triplets.emplace_back(e.row, e.col, 0.0);
  m.setFromTriplets(triplets.begin(), triplets.end());  // sums duplicates, keeps explicit zeros
  m.makeCompressed();
  return m;
}

void add_transposed_product(const SparseMatrix& m, const Eigen::VectorXd& v, Eigen::VectorXd& out) {
  const int* outer = m.outerIndexPtr();
  const int* cols = m.innerIndexPtr();
  const double* vals = m.valuePtr();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    const double factor = v[r];
    if (factor == 0.0) continue;
    for (int k = outer[r]; k < outer[r + 1]; ++k) out[cols[k]] += vals[k] * factor;
  }
}

namespace {

// Below this many stored entries a product takes microseconds: waking the threads would cost more.
constexpr Eigen::Index kEntriesPerThread = 32768;

// `pool` when `entries` (a product's size) is worth its threads, else null (the calling thread).
core::ThreadPool* pool_for(Eigen::Index entries, core::ThreadPool* pool) {
  return entries >= 2 * kEntriesPerThread ? pool : nullptr;
}

}  // namespace

void multiply(const SparseMatrix& m, const Eigen::VectorXd& v, Eigen::VectorXd& out, core::ThreadPool* pool) {
  out.resize(m.rows());
  core::for_each_range(pool_for(m.nonZeros(), pool), static_cast<int>(m.rows()),
                       [&](int first, int last, int /*worker*/) {
                         out.segment(first, last - first).noalias() = m.middleRows(first, last - first) * v;
                       });
}

void multiply_rows(const SparseMatrix& m, std::span<const int> rows, const Eigen::VectorXd& v,
                   Eigen::VectorXd& out, core::ThreadPool* pool) {
  out.resize(m.rows());
  Eigen::Index entries = 0;
  for (const int r : rows) entries += m.outerIndexPtr()[r + 1] - m.outerIndexPtr()[r];
  core::for_each_range(pool_for(entries, pool), static_cast<int>(rows.size()),
                       [&](int first, int last, int /*worker*/) {
                         for (int i = first; i < last; ++i) out[rows[i]] = row_dot(m, rows[i], v);
                       });
}

void row_abs_sums(const SparseMatrix& m, Eigen::VectorXd& out, core::ThreadPool* pool) {
  const int* outer = m.outerIndexPtr();
  const double* vals = m.valuePtr();
  out.resize(m.rows());
  core::for_each_range(pool_for(m.nonZeros(), pool), static_cast<int>(m.rows()),
                       [&](int first, int last, int /*worker*/) {
                         for (int r = first; r < last; ++r) {
                           double sum = 0.0;
                           for (int k = outer[r]; k < outer[r + 1]; ++k) sum += std::abs(vals[k]);
                           out[r] = sum;
                         }
                       });
}

}  // namespace mimic::optim
