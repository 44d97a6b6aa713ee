#include "mimic/trajectory/smoothing_fit.hpp"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

namespace mimic::trajectory {
namespace {

void require_positive(double value, const char* what) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw std::invalid_argument(std::string("smooth_samples: the ") + what + " must be positive and finite");
}

// mu / h^4, the weight of the squared second differences against the squared residuals (both over h).
double penalty_weight(double period, double cutoff) {
  const double omega = 2.0 * std::numbers::pi * cutoff * period;  // the cutoff's angle per sample
  return 1.0 / (omega * omega * omega * omega);
}

}  // namespace

Eigen::MatrixXd smooth_samples(const Eigen::MatrixXd& samples, double period, double cutoff) {
  require_positive(period, "period");
  require_positive(cutoff, "cutoff");
  const Eigen::Index n = samples.rows();
  if (n < 3) return samples;
  const double lambda = penalty_weight(period, cutoff);
  // I + lambda D^T D, D the (n - 2) x n second-difference matrix with rows (1, -2, 1).
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(9 * (n - 2) + n));
  for (Eigen::Index k = 0; k < n; ++k) entries.emplace_back(k, k, 1.0);
  constexpr double kRow[3] = {1.0, -2.0, 1.0};
  for (Eigen::Index r = 0; r + 2 < n; ++r) {
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) entries.emplace_back(r + a, r + b, lambda * kRow[a] * kRow[b]);
  }
  Eigen::SparseMatrix<double> normal(n, n);
  normal.setFromTriplets(entries.begin(), entries.end());
  // The banded matrix in its natural order: no fill-in, so no reordering.
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::NaturalOrdering<int>> factor(
      normal);
  if (factor.info() != Eigen::Success)
    throw std::runtime_error("smooth_samples: the normal matrix did not factorise");
  return factor.solve(samples);
}

double smoothing_gain(double frequency, double period, double cutoff) {
  require_positive(period, "period");
  require_positive(cutoff, "cutoff");
  const double second_difference = 2.0 - 2.0 * std::cos(2.0 * std::numbers::pi * frequency * period);
  return 1.0 / (1.0 + penalty_weight(period, cutoff) * second_difference * second_difference);
}

}  // namespace mimic::trajectory
