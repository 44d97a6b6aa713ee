#include "mimic/optim/split_banded_cholesky.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <stdexcept>
#include <utility>

namespace mimic::optim {

using core::run_both;

namespace {

// A half's pattern from triplets whose values are their sources in `lower` (+ 1, so that none is an explicit
// zero), and the sources in the half's storage order.
SymmetricMatrix half_pattern(int size, std::vector<Eigen::Triplet<double>>& entries,
                             std::vector<int>& source) {
  SymmetricMatrix half(size, size);
  half.setFromTriplets(entries.begin(), entries.end());
  half.makeCompressed();
  source.resize(static_cast<std::size_t>(half.nonZeros()));
  for (Eigen::Index k = 0; k < half.nonZeros(); ++k) {
    source[static_cast<std::size_t>(k)] = static_cast<int>(half.valuePtr()[k]) - 1;
  }
  return half;
}

}  // namespace

bool SplitBandedCholesky::splits(int n, int band) {
  return band >= 0 && n - band >= 2 * kMinHalf * (band + 1);
}

void SplitBandedCholesky::analyze(const SymmetricMatrix& lower) {
  if (lower.rows() != lower.cols() || !lower.isCompressed()) {
    throw std::invalid_argument("SplitBandedCholesky: the pattern must be square and compressed");
  }
  n_ = static_cast<int>(lower.rows());
  values_ = lower.nonZeros();
  band_ = BandedCholesky::bandwidth(lower);
  if (!splits(n_, band_))
    throw std::invalid_argument("SplitBandedCholesky: the matrix is too small to split");
  top_ = (n_ - band_ + 1) / 2;
  bottom_ = n_ - top_ - band_;
  const int separator = top_, below = top_ + band_;  // the separator's first column, the bottom's
  std::vector<Eigen::Triplet<double>> top_entries, bottom_entries;
  top_coupling_entries_.clear();
  bottom_coupling_entries_.clear();
  separator_entries_.clear();
  const auto reversed = [&](int i) { return n_ - 1 - i; };  // a bottom variable's index in the reversed half
  const int* outer = lower.outerIndexPtr();
  const int* inner = lower.innerIndexPtr();
  for (int c = 0; c < n_; ++c) {
    for (int source = outer[c]; source < outer[c + 1]; ++source) {
      const int r = inner[source];
      if (r < c) throw std::invalid_argument("SplitBandedCholesky: give the lower triangle only");
      if (r < separator) {
        top_entries.emplace_back(r, c, source + 1.0);
      } else if (c >= below) {
        // (r, c) with r >= c is (reversed(c), reversed(r)) in the reversed bottom's lower triangle.
        bottom_entries.emplace_back(reversed(c), reversed(r), source + 1.0);
      } else if (c < separator) {  // separator row, top column: within the top's last b columns
        top_coupling_entries_.push_back({source, r - separator, c - (separator - band_)});
      } else if (r < below) {
        separator_entries_.push_back({source, r - separator, c - separator});
      } else {  // bottom row, separator column: within the reversed bottom's last b columns
        bottom_coupling_entries_.push_back({source, c - separator, reversed(r) - (bottom_ - band_)});
      }
    }
  }
  std::vector<int> source;
  const SymmetricMatrix top_pattern = half_pattern(top_, top_entries, source);
  top_factor_.analyze(top_pattern, std::move(source), static_cast<std::size_t>(values_));
  const SymmetricMatrix bottom_pattern = half_pattern(bottom_, bottom_entries, source);
  bottom_factor_.analyze(bottom_pattern, std::move(source), static_cast<std::size_t>(values_));
  top_coupling_.setZero(band_, band_);
  bottom_coupling_.setZero(band_, band_);
  separator_.setZero(band_, band_);
  factored_ = false;
}

bool SplitBandedCholesky::factorize(const SymmetricMatrix& lower, core::ThreadPool* pool) {
  return refactorize(lower, 0, n_ - 1, pool);
}

bool SplitBandedCholesky::refactorize(const SymmetricMatrix& lower, int first_changed, int last_changed,
                                      core::ThreadPool* pool) {
  if (lower.rows() != n_ || lower.nonZeros() != values_) {
    throw std::invalid_argument("SplitBandedCholesky::factorize: not the analysed pattern");
  }
  // Without a usable previous factor, everything; a half untouched by [first, last] keeps its factor.
  if (!factored_) first_changed = 0, last_changed = n_ - 1;
  const int top_from = first_changed < top_ ? std::max(first_changed, 0) : top_;
  const int bottom_from = last_changed >= top_ + band_ ? std::max(n_ - 1 - last_changed, 0) : bottom_;
  factored_ = factorize_halves(lower, top_from, bottom_from, pool);
  return factored_;
}

void SplitBandedCholesky::couple(const SymmetricMatrix& lower, const std::vector<DenseEntry>& entries,
                                 const BandedCholesky& factor, int band, Eigen::MatrixXd& coupling,
                                 Eigen::MatrixXd& x, Eigen::MatrixXd& product) {
  // X = C L^-T: C lives on the half's last b columns, and so does X (L^T is upper triangular), which needs
  // only the half's trailing b x b factor.
  const double* values = lower.valuePtr();
  for (const DenseEntry& e : entries) coupling(e.row, e.col) = values[e.source];
  x = coupling;
  factor.trailing_factor(band).triangularView<Eigen::Lower>().transpose().solveInPlace<Eigen::OnTheRight>(x);
  product.resize(band, band);
  product.triangularView<Eigen::Lower>().setZero();
  product.triangularView<Eigen::Lower>() += x * x.transpose();
}

bool SplitBandedCholesky::factorize_halves(const SymmetricMatrix& lower, int top_from, int bottom_from,
                                           core::ThreadPool* pool) {
  bool top_ok = true, bottom_ok = true;
  run_both(
      pool,
      [&] {
        if (top_from >= top_) return;
        top_ok = top_factor_.refactorize(lower, top_from);
        if (top_ok)
          couple(lower, top_coupling_entries_, top_factor_, band_, top_coupling_, top_x_, top_product_);
      },
      [&] {
        if (bottom_from >= bottom_) return;
        bottom_ok = bottom_factor_.refactorize(lower, bottom_from);
        if (bottom_ok) {
          couple(lower, bottom_coupling_entries_, bottom_factor_, band_, bottom_coupling_, bottom_x_,
                 bottom_product_);
        }
      });
  if (!top_ok || !bottom_ok) return false;

  // The Schur complement of the halves in the separator, then its dense factor in place (the strict upper
  // triangle keeps leftovers, never read; the storage holds the last factor, so entries outside the pattern
  // must read zero again).
  const double* values = lower.valuePtr();
  separator_.setZero();
  for (const DenseEntry& e : separator_entries_) separator_(e.row, e.col) = values[e.source];
  separator_.triangularView<Eigen::Lower>() -= top_product_;
  separator_.triangularView<Eigen::Lower>() -= bottom_product_;
  const Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(separator_);
  return llt.info() == Eigen::Success && separator_.diagonal().allFinite();
}

void SplitBandedCholesky::solve_in_place(Eigen::VectorXd& x, core::ThreadPool* pool) const {
  if (x.size() != n_) throw std::invalid_argument("SplitBandedCholesky::solve_in_place: wrong size");
  auto top = x.head(top_);
  auto separator = x.segment(top_, band_);
  Eigen::VectorXd bottom = x.tail(bottom_).reverse();
  // L y = x: the halves, then the separator's rows.
  run_both(
      pool, [&] { top_factor_.solve_lower_in_place(top); },
      [&] { bottom_factor_.solve_lower_in_place(bottom); });
  separator.noalias() -= top_x_ * top.tail(band_);
  separator.noalias() -= bottom_x_ * bottom.tail(band_);
  const auto ls = separator_.triangularView<Eigen::Lower>();
  ls.solveInPlace(separator);
  // L^T x = y: the separator first, then the halves.
  ls.transpose().solveInPlace(separator);
  top.tail(band_).noalias() -= top_x_.transpose() * separator;
  bottom.tail(band_).noalias() -= bottom_x_.transpose() * separator;
  run_both(
      pool, [&] { top_factor_.solve_upper_in_place(top); },
      [&] { bottom_factor_.solve_upper_in_place(bottom); });
  x.tail(bottom_) = bottom.reverse();
}

}  // namespace mimic::optim
