#include "mimic/optim/normal_equations.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace mimic::optim {

NormalEquations::NormalEquations(std::span<const SparseMatrix* const> blocks, const SymmetricMatrix* extra) {
  if (blocks.empty() && extra == nullptr) throw std::invalid_argument("NormalEquations: nothing to assemble");
  n_ = static_cast<int>(blocks.empty() ? extra->cols() : blocks.front()->cols());
  int rows = 0;
  int entries = 0;
  for (const SparseMatrix* b : blocks) {
    if (b->cols() != n_ || !b->isCompressed()) {
      throw std::invalid_argument("NormalEquations: blocks must be compressed with " + std::to_string(n_) +
                                  " columns");
    }
    block_row_offset_.push_back(rows);
    block_entry_offset_.push_back(entries);
    rows += static_cast<int>(b->rows());
    entries += static_cast<int>(b->nonZeros());
  }
  if (extra != nullptr && (extra->rows() != n_ || extra->cols() != n_ || !extra->isCompressed())) {
    throw std::invalid_argument("NormalEquations: extra matrix must be compressed and " + std::to_string(n_) +
                                " x " + std::to_string(n_));
  }

  // Stacked row structure.
  row_end_.resize(rows);
  entry_column_.resize(entries);
  entry_value_.assign(entries, 0.0);
  row_weight_.assign(rows, 0.0);
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const SparseMatrix& m = *blocks[b];
    for (int r = 0; r < m.rows(); ++r)
      row_end_[block_row_offset_[b] + r] = block_entry_offset_[b] + m.outerIndexPtr()[r + 1];
    std::copy(m.innerIndexPtr(), m.innerIndexPtr() + m.nonZeros(),
              entry_column_.begin() + block_entry_offset_[b]);
  }

  // Column index by counting sort; rows come out ascending within each column.
  column_start_.assign(n_ + 1, 0);
  for (int c : entry_column_) ++column_start_[c + 1];
  for (int c = 0; c < n_; ++c) column_start_[c + 1] += column_start_[c];
  column_entry_.resize(entries);
  column_entry_row_.resize(entries);
  std::vector<int> next(column_start_.begin(), column_start_.end() - 1);
  for (int r = 0, p = 0; r < rows; ++r) {
    for (; p < row_end_[r]; ++p) {
      const int slot = next[entry_column_[p]]++;
      column_entry_[slot] = p;
      column_entry_row_[slot] = r;
    }
  }

  // Entries of `extra`, mirrored into the lower triangle, listed by column.
  std::vector<std::vector<int>> extra_rows(extra != nullptr ? n_ : 0);
  if (extra != nullptr) {
    for (int c = 0; c < n_; ++c) {
      for (SymmetricMatrix::InnerIterator it(*extra, c); it; ++it) {
        const int r = static_cast<int>(it.row());
        extra_rows[std::min(r, c)].push_back(std::max(r, c));
      }
    }
  }

  // Symbolic product: column c of the lower triangle holds c itself, every column >= c that shares a
  // row with c, and the (mirrored) entries of `extra` in column c.
  std::vector<int> outer(n_ + 1, 0);
  std::vector<int> inner;
  std::vector<int> marker(n_, -1);
  std::vector<int> column_rows;
  for (int c = 0; c < n_; ++c) {
    column_rows.clear();
    auto mark = [&](int r) {
      if (marker[r] != c) {
        marker[r] = c;
        column_rows.push_back(r);
      }
    };
    mark(c);
    for (int k = column_start_[c]; k < column_start_[c + 1]; ++k) {
      const int row = column_entry_row_[k];
      for (int q = column_entry_[k]; q < row_end_[row]; ++q) mark(entry_column_[q]);
    }
    if (extra != nullptr) {
      for (int r : extra_rows[c]) mark(r);
    }
    std::sort(column_rows.begin(), column_rows.end());
    inner.insert(inner.end(), column_rows.begin(), column_rows.end());
    outer[c + 1] = static_cast<int>(inner.size());
  }
  h_.resize(n_, n_);
  h_.resizeNonZeros(static_cast<Eigen::Index>(inner.size()));
  std::copy(outer.begin(), outer.end(), h_.outerIndexPtr());
  std::copy(inner.begin(), inner.end(), h_.innerIndexPtr());
  h_.coeffs().setZero();

  if (extra != nullptr) {
    extra_position_.reserve(extra->nonZeros());
    for (int c = 0; c < n_; ++c) {
      for (SymmetricMatrix::InnerIterator it(*extra, c); it; ++it) {
        const int r = static_cast<int>(it.row());
        const int col = std::min(r, c);
        const int* begin = inner.data() + outer[col];
        const int* end = inner.data() + outer[col + 1];
        extra_position_.push_back(
            static_cast<int>(std::lower_bound(begin, end, std::max(r, c)) - inner.data()));
      }
    }
  }
  has_extra_ = extra != nullptr;
  accumulator_.assign(n_, 0.0);
}

void NormalEquations::assemble(std::span<const SparseMatrix* const> blocks,
                               std::span<const Eigen::VectorXd* const> weights, const SymmetricMatrix* extra,
                               double extra_scale) {
  if (blocks.size() != block_row_offset_.size() || weights.size() != blocks.size()) {
    throw std::invalid_argument("NormalEquations::assemble: block count differs from the pattern's");
  }
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const SparseMatrix& m = *blocks[b];
    if (m.nonZeros() !=
            (b + 1 < blocks.size() ? block_entry_offset_[b + 1] : static_cast<int>(entry_value_.size())) -
                block_entry_offset_[b] ||
        weights[b]->size() != m.rows()) {
      throw std::invalid_argument("NormalEquations::assemble: block " + std::to_string(b) +
                                  " or its weights changed shape");
    }
    std::copy(m.valuePtr(), m.valuePtr() + m.nonZeros(), entry_value_.begin() + block_entry_offset_[b]);
    std::copy(weights[b]->data(), weights[b]->data() + m.rows(), row_weight_.begin() + block_row_offset_[b]);
  }

  double* h = h_.valuePtr();
  const int* h_outer = h_.outerIndexPtr();
  const int* h_inner = h_.innerIndexPtr();
  double* acc = accumulator_.data();
  for (int c = 0; c < n_; ++c) {
    for (int k = column_start_[c]; k < column_start_[c + 1]; ++k) {
      const int row = column_entry_row_[k];
      const int p = column_entry_[k];
      const double a = row_weight_[row] * entry_value_[p];
      if (a == 0.0) continue;
      for (int q = p; q < row_end_[row]; ++q) acc[entry_column_[q]] += a * entry_value_[q];
    }
    for (int e = h_outer[c]; e < h_outer[c + 1]; ++e) {
      h[e] = acc[h_inner[e]];
      acc[h_inner[e]] = 0.0;
    }
  }
  if (extra != nullptr) {
    if (!has_extra_ || extra->nonZeros() != static_cast<Eigen::Index>(extra_position_.size())) {
      throw std::invalid_argument("NormalEquations::assemble: the extra matrix differs from the pattern's");
    }
    // Stored in the same (column, row) order as at construction, so positions line up.
    for (std::size_t e = 0; e < extra_position_.size(); ++e)
      h[extra_position_[e]] += extra_scale * extra->valuePtr()[e];
  }
}

}  // namespace mimic::optim
