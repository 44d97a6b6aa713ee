#include "mimic/optim/banded_cholesky.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>

namespace mimic::optim {

int BandedCholesky::bandwidth(const SymmetricMatrix& lower) {
  int band = 0;
  for (int c = 0; c < lower.outerSize(); ++c) {
    for (SymmetricMatrix::InnerIterator it(lower, c); it; ++it) {
      band = std::max(band, static_cast<int>(it.row()) - c);
    }
  }
  return band;
}

void BandedCholesky::analyze(const SymmetricMatrix& lower) {
  std::vector<int> identity(static_cast<std::size_t>(lower.nonZeros()));
  for (std::size_t k = 0; k < identity.size(); ++k) identity[k] = static_cast<int>(k);
  analyze(lower, std::move(identity), static_cast<std::size_t>(lower.nonZeros()));
  whole_ = true;
}

void BandedCholesky::analyze(const SymmetricMatrix& pattern, std::vector<int> source,
                             std::size_t source_size) {
  if (pattern.rows() != pattern.cols() || !pattern.isCompressed()) {
    throw std::invalid_argument("BandedCholesky: the pattern must be square and compressed");
  }
  if (source.size() != static_cast<std::size_t>(pattern.nonZeros()) ||
      std::any_of(source.begin(), source.end(),
                  [&](int k) { return k < 0 || static_cast<std::size_t>(k) >= source_size; })) {
    throw std::invalid_argument("BandedCholesky: a source index per pattern value, inside the source");
  }
  n_ = static_cast<int>(pattern.rows());
  band_ = bandwidth(pattern);
  panels_.clear();
  std::size_t offset = 0;
  for (int first = 0; first < n_; first += kBlock) {
    const int width = std::min(kBlock, n_ - first);
    const int height = std::min(width + band_, n_ - first);
    panels_.push_back({first, width, height, offset});
    offset += static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  }
  if (offset > std::numeric_limits<std::uint32_t>::max() ||
      source_size > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument("BandedCholesky: the band is too large");
  }
  storage_.assign(offset, 0.0);
  // Each value's place in storage_ and its panel, in the order of the values it is read from.
  struct Copy {
    std::uint32_t source, target, panel;
  };
  std::vector<Copy> copies;
  copies.reserve(source.size());
  std::vector<char> stored(offset, 0);
  for (int c = 0; c < n_; ++c) {
    const auto panel_index = static_cast<std::uint32_t>(c / kBlock);
    const Panel& p = panels_[panel_index];
    for (int k = pattern.outerIndexPtr()[c]; k < pattern.outerIndexPtr()[c + 1]; ++k) {
      const int row = pattern.innerIndexPtr()[k];
      if (row < c) throw std::invalid_argument("BandedCholesky: give the lower triangle only");
      const std::size_t target = p.offset +
                                 static_cast<std::size_t>(c - p.first) * static_cast<std::size_t>(p.height) +
                                 static_cast<std::size_t>(row - p.first);
      copies.push_back({static_cast<std::uint32_t>(source[static_cast<std::size_t>(k)]),
                        static_cast<std::uint32_t>(target), panel_index});
      stored[target] = 1;
    }
  }
  // Runs of values read one after the other and written at a constant stride in one panel: a column of a
  // band read from itself is one run (stride 1); a half read from a whole matrix in reverse
  // (split_banded_cholesky.hpp) writes each value's row of it at the panel's height apart. Reading the
  // values in order, without an index per value, keeps the reload at the speed of a copy.
  // Ordered by source with a counting sort (the sources are indices below source_size; ties keep their
  // order): linear in the values, where a comparison sort grew faster than the clip (issue 15).
  {
    std::vector<std::uint32_t> position(source_size + 1, 0);
    for (const Copy& copy : copies) ++position[copy.source + 1];
    for (std::size_t k = 0; k < source_size; ++k) position[k + 1] += position[k];
    std::vector<Copy> ordered(copies.size());
    for (const Copy& copy : copies) ordered[position[copy.source]++] = copy;
    copies = std::move(ordered);
  }
  copy_runs_.clear();
  for (std::size_t i = 0; i < copies.size();) {
    Run run{copies[i].source, copies[i].target, 1, 1, copies[i].panel};
    std::size_t j = i + 1;
    if (j < copies.size() && copies[j].source == run.source + 1 && copies[j].panel == run.panel) {
      run.stride = static_cast<std::int32_t>(copies[j].target) - static_cast<std::int32_t>(run.target);
      while (j < copies.size() && copies[j].source == run.source + run.length &&
             copies[j].panel == run.panel &&
             static_cast<std::int64_t>(copies[j].target) ==
                 static_cast<std::int64_t>(run.target) + static_cast<std::int64_t>(run.stride) * run.length) {
        ++run.length;
        ++j;
      }
    }
    copy_runs_.push_back(run);
    i = j;
  }
  // The entries the pattern leaves out (the band's far corners, holes in it, the upper triangles of the
  // diagonal blocks, which the updates write and nothing reads): zeroed before each factorisation, so that
  // it starts from the same storage as from a cleared one; by runs of consecutive entries.
  zero_runs_.clear();
  for (std::uint32_t j = 0; j < panels_.size(); ++j) {
    const Panel& p = panels_[j];
    const std::size_t end = p.offset + static_cast<std::size_t>(p.width) * static_cast<std::size_t>(p.height);
    for (std::size_t k = p.offset; k < end; ++k) {
      if (stored[k]) continue;
      if (!zero_runs_.empty() && zero_runs_.back().panel == j &&
          zero_runs_.back().target + zero_runs_.back().length == k) {
        ++zero_runs_.back().length;
      } else {
        zero_runs_.push_back({0, static_cast<std::uint32_t>(k), 1, 1, j});
      }
    }
  }
  source_size_ = source_size;
  whole_ = false;
  factored_ = false;
}

bool BandedCholesky::factorize(const SymmetricMatrix& lower) { return factorize_from(lower, 0); }

bool BandedCholesky::refactorize(const SymmetricMatrix& lower, int first_changed) {
  if (!factored_ || first_changed <= 0) return factorize_from(lower, 0);
  if (first_changed >= n_) return true;
  return factorize_from(lower, static_cast<std::size_t>(first_changed / kBlock));
}

bool BandedCholesky::factorize_from(const SymmetricMatrix& lower, std::size_t first_panel) {
  if ((whole_ && lower.rows() != n_) || static_cast<std::size_t>(lower.nonZeros()) != source_size_) {
    throw std::invalid_argument("BandedCholesky::factorize: not the analysed pattern");
  }
  factored_ = false;
  // Every entry is the pattern's or zero, without a fill of the whole storage.
  for (const Run& run : zero_runs_) {
    if (run.panel >= first_panel) std::fill_n(storage_.data() + run.target, run.length, 0.0);
  }
  const double* values = lower.valuePtr();
  for (const Run& run : copy_runs_) {
    if (run.panel < first_panel) continue;
    const double* from = values + run.source;
    if (run.stride == 1) {
      std::copy_n(from, run.length, storage_.data() + run.target);
    } else {
      double* to = storage_.data() + run.target;
      for (std::uint32_t k = 0; k < run.length; ++k)
        to[static_cast<std::ptrdiff_t>(k) * run.stride] = from[k];
    }
  }
  // The kept panels' updates of the reloaded ones: those whose band reaches past the first reloaded column.
  std::size_t j = first_panel;
  while (j > 0 && panels_[j - 1].first + panels_[j - 1].height > panels_[first_panel].first) --j;

  for (; j < panels_.size(); ++j) {
    const Panel& pj = panels_[j];
    Eigen::Map<Eigen::MatrixXd> a = panel(pj);
    const int below = pj.height - pj.width;
    if (j >= first_panel) {
      Eigen::Ref<Eigen::MatrixXd> diagonal = a.topRows(pj.width);
      // In place on the lower triangle; the upper one holds leftovers of the updates below and is never
      // read.
      const Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(diagonal);
      if (llt.info() != Eigen::Success || !diagonal.diagonal().allFinite()) return false;
      if (below == 0) continue;
      diagonal.triangularView<Eigen::Lower>().transpose().solveInPlace<Eigen::OnTheRight>(
          a.bottomRows(below));
    }
    if (below == 0) continue;
    const auto l = a.bottomRows(below);
    // Rows pj.first + width .. pj.first + height - 1 of the trailing matrix get - l l^T: the panels whose
    // first column lies in that range, each from its first row down to the range's end (a kept panel's
    // only into the reloaded ones).
    const int end = pj.first + pj.height;
    for (std::size_t k = std::max(j + 1, first_panel); k < panels_.size() && panels_[k].first < end; ++k) {
      const Panel& pk = panels_[k];
      const int offset = pk.first - (pj.first + pj.width);
      const int rows = end - pk.first;
      const int cols = std::min(pk.width, rows);
      panel(pk).topLeftCorner(rows, cols).noalias() -=
          l.middleRows(offset, rows) * l.middleRows(offset, cols).transpose();
    }
  }
  factored_ = true;
  return true;
}

void BandedCholesky::solve_in_place(Eigen::VectorXd& x) const {
  if (x.size() != n_) throw std::invalid_argument("BandedCholesky::solve_in_place: wrong size");
  solve_lower_in_place(x);
  solve_upper_in_place(x);
}

void BandedCholesky::solve_lower_in_place(Eigen::Ref<Eigen::VectorXd> x) const {
  if (x.size() != n_) throw std::invalid_argument("BandedCholesky::solve_lower_in_place: wrong size");
  for (const Panel& p : panels_) {  // L y = x
    const auto a = panel(p);
    auto xj = x.segment(p.first, p.width);
    a.topRows(p.width).triangularView<Eigen::Lower>().solveInPlace(xj);
    const int below = p.height - p.width;
    if (below > 0) x.segment(p.first + p.width, below).noalias() -= a.bottomRows(below) * xj;
  }
}

void BandedCholesky::solve_upper_in_place(Eigen::Ref<Eigen::VectorXd> x) const {
  if (x.size() != n_) throw std::invalid_argument("BandedCholesky::solve_upper_in_place: wrong size");
  for (auto it = panels_.rbegin(); it != panels_.rend(); ++it) {  // L^T x = y
    const Panel& p = *it;
    const auto a = panel(p);
    auto xj = x.segment(p.first, p.width);
    const int below = p.height - p.width;
    if (below > 0) xj.noalias() -= a.bottomRows(below).transpose() * x.segment(p.first + p.width, below);
    a.topRows(p.width).triangularView<Eigen::Lower>().transpose().solveInPlace(xj);
  }
}

Eigen::MatrixXd BandedCholesky::trailing_factor(int k) const {
  if (k < 0 || k > n_) throw std::invalid_argument("BandedCholesky::trailing_factor: wrong size");
  Eigen::MatrixXd block = Eigen::MatrixXd::Zero(k, k);
  const int first = n_ - k;
  for (int c = first; c < n_; ++c) {
    const Panel& p = panels_[static_cast<std::size_t>(c / kBlock)];
    const auto a = panel(p);
    // Column c of L from its diagonal to the band's end (inside the panel; zero below).
    const int end = std::min(n_, c + band_ + 1);
    for (int r = c; r < end; ++r) block(r - first, c - first) = a(r - p.first, c - p.first);
  }
  return block;
}

}  // namespace mimic::optim
