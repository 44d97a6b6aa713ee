#include "mimic/optim/normal_equations.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace mimic::optim {

NormalEquations::NormalEquations(std::span<const SparseMatrix* const> blocks, const SymmetricMatrix* extra) {
  if (blocks.empty() && extra == nullptr) throw std::invalid_argument("NormalEquations: nothing to assemble");
  n_ = static_cast<int>(blocks.empty() ? extra->cols() : blocks.front()->cols());
  for (const SparseMatrix* b : blocks) {
    if (b->cols() != n_ || !b->isCompressed()) {
      throw std::invalid_argument("NormalEquations: blocks must be compressed with " + std::to_string(n_) +
                                  " columns");
    }
    block_nonzeros_.push_back(b->nonZeros());
    // Row groups: rows with identical column lists, wherever they are in the block (a B-spline row set
    // repeats its columns at every sample of a knot interval), in the order of their first rows.
    std::vector<RowGroup>& groups = groups_.emplace_back();
    std::vector<int>& members = group_rows_.emplace_back();
    const int* outer = b->outerIndexPtr();
    const int* inner = b->innerIndexPtr();
    const auto same_columns = [&](int r, int s) {
      return outer[r + 1] - outer[r] == outer[s + 1] - outer[s] &&
             std::equal(inner + outer[r], inner + outer[r + 1], inner + outer[s]);
    };
    std::vector<int> group_of_row(static_cast<std::size_t>(b->rows()));
    std::vector<int> first_row_of_group;
    std::vector<int> group_size;
    std::unordered_multimap<std::uint64_t, int> groups_by_hash;
    for (int r = 0; r < b->rows(); ++r) {
      int group = -1;
      if (r > 0 && same_columns(r, r - 1)) {
        group = group_of_row[static_cast<std::size_t>(r - 1)];
      } else {
        std::uint64_t hash = 1469598103934665603ull;  // FNV-1a over the column indices
        for (int k = outer[r]; k < outer[r + 1]; ++k)
          hash = (hash ^ static_cast<std::uint32_t>(inner[k])) * 1099511628211ull;
        const auto [begin, end] = groups_by_hash.equal_range(hash);
        for (auto it = begin; it != end && group < 0; ++it) {
          if (same_columns(r, first_row_of_group[static_cast<std::size_t>(it->second)])) group = it->second;
        }
        if (group < 0) {
          group = static_cast<int>(first_row_of_group.size());
          first_row_of_group.push_back(r);
          group_size.push_back(0);
          groups_by_hash.emplace(hash, group);
        }
      }
      group_of_row[static_cast<std::size_t>(r)] = group;
      ++group_size[static_cast<std::size_t>(group)];
    }
    int begin = 0;
    for (const int size : group_size) {
      groups.push_back({begin, size});
      begin += size;
    }
    members.resize(static_cast<std::size_t>(b->rows()));
    std::vector<int> filled(group_size.size(), 0);
    for (int r = 0; r < b->rows(); ++r) {
      const RowGroup& g = groups[static_cast<std::size_t>(group_of_row[static_cast<std::size_t>(r)])];
      members[static_cast<std::size_t>(
          g.begin + filled[static_cast<std::size_t>(group_of_row[static_cast<std::size_t>(r)])]++)] = r;
    }
  }
  scratch_.resize(1);
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const int* outer = blocks[b]->outerIndexPtr();
    const int* inner = blocks[b]->innerIndexPtr();
    Scratch& s = scratch_.front();
    std::vector<std::pair<int, int>>& ranges = column_ranges_.emplace_back();
    for (RowGroup& g : groups_[b]) {
      const int first_row = group_rows_[b][static_cast<std::size_t>(g.begin)];
      const std::size_t k = static_cast<std::size_t>(outer[first_row + 1] - outer[first_row]);
      g.columns = static_cast<int>(k);
      ranges.emplace_back(k > 0 ? inner[outer[first_row]] : 1, k > 0 ? inner[outer[first_row + 1] - 1] : 0);
      if (g.rows > 1) {
        s.group_rows.resize(std::max(s.group_rows.size(), static_cast<std::size_t>(g.rows) * k));
        s.gram.resize(std::max(s.gram.size(), k * k));
      }
    }
  }
  if (extra != nullptr && (extra->rows() != n_ || extra->cols() != n_ || !extra->isCompressed())) {
    throw std::invalid_argument("NormalEquations: extra matrix must be compressed and " + std::to_string(n_) +
                                " x " + std::to_string(n_));
  }

  // Symbolic product, column by column with a marker: column c of the lower triangle holds c itself,
  // every column >= c that shares a row of a block with c, and the (mirrored) entries of `extra`.
  // Needs, per column, the rows touching it: a column index of all blocks (temporary), one row per group
  // (the others have its columns).
  std::vector<int> column_start(n_ + 1, 0);
  const auto for_each_group_row = [&](auto&& f) {
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      const int* inner = blocks[b]->innerIndexPtr();
      const int* outer = blocks[b]->outerIndexPtr();
      for (const RowGroup& g : groups_[b]) {
        const int r = group_rows_[b][static_cast<std::size_t>(g.begin)];
        f(inner + outer[r], inner + outer[r + 1]);
      }
    }
  };
  for_each_group_row([&](const int* begin, const int* end) {
    for (const int* p = begin; p != end; ++p) ++column_start[*p + 1];
  });
  for (int c = 0; c < n_; ++c) column_start[c + 1] += column_start[c];
  struct RowRef {
    const int* begin;  // the row's columns from this column on
    const int* end;
  };
  std::vector<RowRef> rows_of_column(column_start[n_]);
  std::vector<int> next(column_start.begin(), column_start.end() - 1);
  for_each_group_row([&](const int* begin, const int* end) {
    for (const int* p = begin; p != end; ++p) rows_of_column[next[*p]++] = {p, end};
  });
  std::vector<std::vector<int>> extra_rows(extra != nullptr ? n_ : 0);
  if (extra != nullptr) {
    for (int c = 0; c < n_; ++c) {
      for (SymmetricMatrix::InnerIterator it(*extra, c); it; ++it) {
        const int r = static_cast<int>(it.row());
        extra_rows[std::min(r, c)].push_back(std::max(r, c));
      }
    }
  }
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
    for (int k = column_start[c]; k < column_start[c + 1]; ++k) {
      for (const int* p = rows_of_column[k].begin; p != rows_of_column[k].end; ++p) mark(*p);
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
}

void NormalEquations::merge_gram(const int* columns, int k, const double* gram, int gram_stride, int first,
                                 int last) {
  double* h = h_.valuePtr();
  const int* h_outer = h_.outerIndexPtr();
  const int* h_inner = h_.innerIndexPtr();
  for (int p = 0; p < k; ++p) {
    if (columns[p] < first) continue;
    if (columns[p] >= last) break;
    const double* column = gram + static_cast<std::ptrdiff_t>(p) * gram_stride;
    int e = h_outer[columns[p]];
    for (int q = p; q < k; ++q) {
      while (h_inner[e] != columns[q]) ++e;
      h[e] += column[q];
    }
  }
}

void NormalEquations::set_thread_pool(core::ThreadPool* pool) {
  pool_ = pool != nullptr && pool->size() > 1 ? pool : nullptr;
  parts_.clear();
  shared_.clear();
  shared_gram_.clear();
  if (pool_ == nullptr) return;
  scratch_.resize(static_cast<std::size_t>(pool_->size()), scratch_.front());
  // Work per column: a group's Gram matrix (rows k^2 / 2) counted at its first column, plus one per entry
  // of H (clearing it, walking it). Several parts per thread balance what the estimate misses.
  std::vector<double> work(static_cast<std::size_t>(n_), 0.0);
  for (int c = 0; c < n_; ++c) work[c] = h_.outerIndexPtr()[c + 1] - h_.outerIndexPtr()[c];
  for (std::size_t b = 0; b < groups_.size(); ++b) {
    for (std::size_t g = 0; g < groups_[b].size(); ++g) {
      const auto [first, last] = column_ranges_[b][g];
      const double k = last - first + 1;
      if (first <= last) work[first] += 0.5 * groups_[b][g].rows * k * k;
    }
  }
  double total = 0.0;
  for (double w : work) total += w;
  const int count = std::min(n_, 4 * pool_->size());
  double done = 0.0;
  int first = 0;
  for (int c = 0; c < n_; ++c) {
    done += work[c];
    const int part = static_cast<int>(parts_.size());
    if (c == n_ - 1 || done >= total * (part + 1) / count) {
      parts_.push_back({first, c + 1, {}});
      first = c + 1;
    }
  }
  for (std::size_t b = 0; b < groups_.size(); ++b) {
    for (std::size_t g = 0; g < groups_[b].size(); ++g) {
      const auto [low, high] = column_ranges_[b][g];
      if (low > high) continue;
      // The parts overlapping [low, high], found from the part holding `low`.
      const auto begin = std::upper_bound(parts_.begin(), parts_.end(), low,
                                          [](int column, const Part& part) { return column < part.last; });
      auto end = begin;
      while (end != parts_.end() && end->first <= high) ++end;
      int shared = -1;
      if (end - begin > 1 && groups_[b][g].rows > 1) {
        // Straddles parts: its Gram matrix is computed once per assembly (file comment of the header).
        shared = static_cast<int>(shared_.size());
        const auto k = static_cast<std::size_t>(groups_[b][g].columns);
        shared_.push_back({static_cast<int>(b), static_cast<int>(g), shared_gram_.size(), GroupPath::kNone});
        shared_gram_.resize(shared_gram_.size() + k * k);
      }
      for (auto it = begin; it != end; ++it)
        it->groups.push_back({static_cast<int>(b), static_cast<int>(g), shared});
    }
  }
  if (parts_.empty()) pool_ = nullptr;
}

NormalEquations::GroupPath NormalEquations::group_path(const SparseMatrix& m, const Eigen::VectorXd& w,
                                                       std::span<const int> rows) const {
  const int* outer = m.outerIndexPtr();
  const int k = outer[rows.front() + 1] - outer[rows.front()];
  int weighted = 0;
  bool negative = false;
  for (const int r : rows) {
    weighted += w[r] != 0.0;
    negative |= w[r] < 0.0;
  }
  if (weighted == 0 || k == 0) return GroupPath::kNone;
  return weighted > 1 && !negative ? GroupPath::kGram : GroupPath::kRows;
}

void NormalEquations::compute_gram(const SparseMatrix& m, const Eigen::VectorXd& w, std::span<const int> rows,
                                   Scratch& scratch, double* gram) const {
  const int* outer = m.outerIndexPtr();
  const double* vals = m.valuePtr();
  const int k = outer[rows.front() + 1] - outer[rows.front()];
  int weighted = 0;
  for (const int r : rows) weighted += w[r] != 0.0;
  // The weighted rows sqrt(w) v as the columns of a^T (k x weighted): each row is copied contiguously. The
  // rank update a^T a is bitwise the same as from a row-major a (Eigen packs both into the same panels).
  Eigen::Map<Eigen::MatrixXd> at(scratch.group_rows.data(), k, weighted);
  int i = 0;
  for (const int r : rows) {
    if (w[r] == 0.0) continue;
    at.col(i++) = std::sqrt(w[r]) * Eigen::Map<const Eigen::VectorXd>(vals + outer[r], k);
  }
  Eigen::Map<Eigen::MatrixXd> g(gram, k, k);
  g.triangularView<Eigen::Lower>().setZero();
  g.selfadjointView<Eigen::Lower>().rankUpdate(at);
}

void NormalEquations::add_group(const SparseMatrix& m, const Eigen::VectorXd& w, std::span<const int> rows,
                                int first, int last, Scratch& scratch) {
  switch (group_path(m, w, rows)) {
    case GroupPath::kNone:
      return;
    case GroupPath::kGram: {
      // Dense Gram matrix of the weighted rows, then one merge into H.
      const int* outer = m.outerIndexPtr();
      const int k = outer[rows.front() + 1] - outer[rows.front()];
      compute_gram(m, w, rows, scratch, scratch.gram.data());
      merge_gram(m.innerIndexPtr() + outer[rows.front()], k, scratch.gram.data(), k, first, last);
      return;
    }
    case GroupPath::kRows:
      add_rows(m, w, rows, first, last);
      return;
  }
}

void NormalEquations::add_rows(const SparseMatrix& m, const Eigen::VectorXd& w, std::span<const int> rows,
                               int first, int last) {
  double* h = h_.valuePtr();
  const int* h_outer = h_.outerIndexPtr();
  const int* h_inner = h_.innerIndexPtr();
  const int* outer = m.outerIndexPtr();
  const int* cols = m.innerIndexPtr();
  const double* vals = m.valuePtr();
  for (const int r : rows) {
    if (w[r] == 0.0) continue;
    const int end = outer[r + 1];
    // H(c_q, c_p) += w v_p v_q for p <= q: walk H's column c_p (rows ascending, diagonal first) along
    // with the row's columns c_p <= c_q (ascending); every c_q is in that column by construction.
    for (int p = outer[r]; p < end; ++p) {
      if (cols[p] < first) continue;
      if (cols[p] >= last) break;
      const double a = w[r] * vals[p];
      if (a == 0.0) continue;
      int e = h_outer[cols[p]];
      for (int q = p; q < end; ++q) {
        while (h_inner[e] != cols[q]) ++e;
        h[e] += a * vals[q];
      }
    }
  }
}

void NormalEquations::assemble(std::span<const SparseMatrix* const> blocks,
                               std::span<const Eigen::VectorXd* const> weights, const SymmetricMatrix* extra,
                               double extra_scale, bool accumulate) {
  assemble_range(blocks, weights, extra, extra_scale, accumulate, 0, n_);
}

void NormalEquations::assemble_columns(std::span<const SparseMatrix* const> blocks,
                                       std::span<const Eigen::VectorXd* const> weights, int first, int last,
                                       bool accumulate) {
  if (first < 0 || first > last || last > n_) {
    throw std::invalid_argument("NormalEquations::assemble_columns: columns [" + std::to_string(first) +
                                ", " + std::to_string(last) + ") outside [0, " + std::to_string(n_) + ")");
  }
  assemble_range(blocks, weights, nullptr, 1.0, accumulate, first, last);
}

void NormalEquations::assemble_range(std::span<const SparseMatrix* const> blocks,
                                     std::span<const Eigen::VectorXd* const> weights,
                                     const SymmetricMatrix* extra, double extra_scale, bool accumulate,
                                     int first, int last) {
  if (blocks.size() != block_nonzeros_.size() || weights.size() != blocks.size()) {
    throw std::invalid_argument("NormalEquations::assemble: block count differs from the pattern's");
  }
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    if (blocks[b]->nonZeros() != block_nonzeros_[b] || weights[b]->size() != blocks[b]->rows()) {
      throw std::invalid_argument("NormalEquations::assemble: block " + std::to_string(b) +
                                  " or its weights changed shape");
    }
  }
  if (extra != nullptr &&
      (!has_extra_ || extra->nonZeros() != static_cast<Eigen::Index>(extra_position_.size()))) {
    throw std::invalid_argument("NormalEquations::assemble: the extra matrix differs from the pattern's");
  }
  // A block without a weighted row adds nothing (the ALM's model steps add the inequalities alone, with the
  // other blocks' weights 0): one sequential scan of its weights instead of one per group.
  weighted_.resize(blocks.size());
  for (std::size_t b = 0; b < blocks.size(); ++b) weighted_[b] = (weights[b]->array() != 0.0).any();
  double* h = h_.valuePtr();
  const int* h_outer = h_.outerIndexPtr();
  // A group adds to the columns its rows span: those outside [first, last) are skipped.
  const auto outside = [&](std::size_t b, std::size_t g) {
    const auto [low, high] = column_ranges_[b][g];
    return high < first || low >= last;
  };
  if (first >= last) return;
  if (pool_ == nullptr) {
    if (!accumulate) std::fill(h + h_outer[first], h + h_outer[last], 0.0);
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      if (!weighted_[b]) continue;
      for (std::size_t g = 0; g < groups_[b].size(); ++g) {
        if (outside(b, g)) continue;
        add_group(*blocks[b], *weights[b], group_members(b, groups_[b][g]), first, last, scratch_.front());
      }
    }
  } else {
    const auto members = [&](int b, int g) {
      return group_members(static_cast<std::size_t>(b),
                           groups_[static_cast<std::size_t>(b)][static_cast<std::size_t>(g)]);
    };
    // The straddling groups' Gram matrices first, each once.
    if (!shared_.empty()) {
      pool_->run(static_cast<int>(shared_.size()), [&](int index, int worker) {
        SharedGroup& shared = shared_[static_cast<std::size_t>(index)];
        if (!weighted_[static_cast<std::size_t>(shared.block)] ||
            outside(static_cast<std::size_t>(shared.block), static_cast<std::size_t>(shared.group))) {
          shared.path = GroupPath::kNone;
          return;
        }
        const SparseMatrix& m = *blocks[static_cast<std::size_t>(shared.block)];
        const Eigen::VectorXd& w = *weights[static_cast<std::size_t>(shared.block)];
        const std::span<const int> rows = members(shared.block, shared.group);
        shared.path = group_path(m, w, rows);
        if (shared.path == GroupPath::kGram) {
          compute_gram(m, w, rows, scratch_[static_cast<std::size_t>(worker)],
                       shared_gram_.data() + shared.offset);
        }
      });
    }
    // The parts that overlap [first, last), each cut to it.
    const auto part_begin = std::upper_bound(parts_.begin(), parts_.end(), first,
                                             [](int column, const Part& part) { return column < part.last; });
    auto part_end = part_begin;
    while (part_end != parts_.end() && part_end->first < last) ++part_end;
    const int part_offset = static_cast<int>(part_begin - parts_.begin());
    pool_->run(static_cast<int>(part_end - part_begin), [&](int index, int worker) {
      const Part& part = parts_[static_cast<std::size_t>(part_offset + index)];
      const int part_first = std::max(part.first, first), part_last = std::min(part.last, last);
      if (!accumulate) std::fill(h + h_outer[part_first], h + h_outer[part_last], 0.0);
      for (const PartGroup& pg : part.groups) {
        if (!weighted_[static_cast<std::size_t>(pg.block)]) continue;
        if (outside(static_cast<std::size_t>(pg.block), static_cast<std::size_t>(pg.group))) continue;
        const SparseMatrix& m = *blocks[static_cast<std::size_t>(pg.block)];
        const Eigen::VectorXd& w = *weights[static_cast<std::size_t>(pg.block)];
        const std::span<const int> rows = members(pg.block, pg.group);
        if (pg.shared < 0) {
          add_group(m, w, rows, part_first, part_last, scratch_[static_cast<std::size_t>(worker)]);
          continue;
        }
        const SharedGroup& shared = shared_[static_cast<std::size_t>(pg.shared)];
        if (shared.path == GroupPath::kGram) {
          const int* outer = m.outerIndexPtr();
          const int k = outer[rows.front() + 1] - outer[rows.front()];
          merge_gram(m.innerIndexPtr() + outer[rows.front()], k, shared_gram_.data() + shared.offset, k,
                     part_first, part_last);
        } else if (shared.path == GroupPath::kRows) {
          add_rows(m, w, rows, part_first, part_last);
        }
      }
    });
  }
  if (extra != nullptr) {
    // Stored in the same (column, row) order as at construction, so positions line up.
    for (std::size_t e = 0; e < extra_position_.size(); ++e)
      h[extra_position_[e]] += extra_scale * extra->valuePtr()[e];
  }
}

}  // namespace mimic::optim
