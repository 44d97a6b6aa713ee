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

void multiply(const SparseMatrix& m, const Eigen::VectorXd& v, Eigen::VectorXd& out, core::ThreadPool* pool) {
  // Below a few thousand rows the product takes microseconds: waking the threads would cost more.
  constexpr Eigen::Index kRowsPerThread = 2048;
  const Eigen::Index rows = m.rows();
  if (pool == nullptr || pool->size() == 1 || rows < 2 * kRowsPerThread) {
    out.noalias() = m * v;
    return;
  }
  out.resize(rows);
  const int chunks = static_cast<int>(std::min<Eigen::Index>(4 * pool->size(), rows / kRowsPerThread));
  pool->run(chunks, [&](int chunk, int /*worker*/) {
    const Eigen::Index first = rows * chunk / chunks, last = rows * (chunk + 1) / chunks;
    out.segment(first, last - first).noalias() = m.middleRows(first, last - first) * v;
  });
}

namespace {

// Below this many stored entries a product takes microseconds: waking the threads would cost more.
constexpr std::size_t kEntriesPerThread = 32768;

// Runs body(first, last) over [0, count) in chunks on `pool` when `entries` (the work's size) warrants it.
template <typename Body>
void run_chunked(std::size_t count, std::size_t entries, core::ThreadPool* pool, const Body& body) {
  if (pool == nullptr || pool->size() == 1 || entries < 2 * kEntriesPerThread) {
    body(std::size_t{0}, count);
    return;
  }
  const int chunks = static_cast<int>(std::min<std::size_t>(
      {4 * static_cast<std::size_t>(pool->size()), entries / kEntriesPerThread, count}));
  pool->run(chunks, [&](int chunk, int /*worker*/) {
    body(count * static_cast<std::size_t>(chunk) / static_cast<std::size_t>(chunks),
         count * static_cast<std::size_t>(chunk + 1) / static_cast<std::size_t>(chunks));
  });
}

}  // namespace

void multiply_rows(const SparseMatrix& m, std::span<const int> rows, const Eigen::VectorXd& v,
                   Eigen::VectorXd& out, core::ThreadPool* pool) {
  const int* outer = m.outerIndexPtr();
  const int* cols = m.innerIndexPtr();
  const double* vals = m.valuePtr();
  out.resize(m.rows());
  std::size_t entries = 0;
  for (const int r : rows) entries += static_cast<std::size_t>(outer[r + 1] - outer[r]);
  run_chunked(rows.size(), entries, pool, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
      const int r = rows[i];
      // Eigen's row-major sparse times dense vector: tmp summed from 0 in storage order, then added to the
      // zeroed result (0.0 + tmp, which differs from tmp for tmp = -0).
      double tmp = 0.0;
      for (int k = outer[r]; k < outer[r + 1]; ++k) tmp += vals[k] * v[cols[k]];
      out[r] = 0.0 + tmp;
    }
  });
}

void row_abs_sums(const SparseMatrix& m, Eigen::VectorXd& out, core::ThreadPool* pool) {
  const int* outer = m.outerIndexPtr();
  const double* vals = m.valuePtr();
  out.resize(m.rows());
  run_chunked(static_cast<std::size_t>(m.rows()), static_cast<std::size_t>(m.nonZeros()), pool,
              [&](std::size_t first, std::size_t last) {
                for (std::size_t r = first; r < last; ++r) {
                  double sum = 0.0;
                  for (int k = outer[r]; k < outer[r + 1]; ++k) sum += std::abs(vals[k]);
                  out[static_cast<Eigen::Index>(r)] = sum;
                }
              });
}

}  // namespace mimic::optim
