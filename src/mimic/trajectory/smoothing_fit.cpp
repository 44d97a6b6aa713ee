#include "mimic/trajectory/smoothing_fit.hpp"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>
#include <limits>
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

// The stiffness holding a sample at its bound, against the residual weight 1: the fit stays within
// |residual| / kPin (< 1e-8 rad for residuals below a radian) of the bound there.
constexpr double kPin = 1e8;
constexpr int kPinRounds = 50;

}  // namespace

Eigen::MatrixXd smooth_samples(const Eigen::MatrixXd& samples, double period, double cutoff) {
  const Eigen::VectorXd none =
      Eigen::VectorXd::Constant(samples.cols(), std::numeric_limits<double>::infinity());
  return smooth_samples_within(samples, period, cutoff, -none, none);
}

Eigen::MatrixXd smooth_samples_within(const Eigen::MatrixXd& samples, double period, double cutoff,
                                      const Eigen::VectorXd& lower, const Eigen::VectorXd& upper) {
  require_positive(period, "period");
  require_positive(cutoff, "cutoff");
  if (lower.size() != samples.cols() || upper.size() != samples.cols())
    throw std::invalid_argument("smooth_samples_within: one bound per column");
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
  using Factor =
      Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::NaturalOrdering<int>>;
  const Factor factor(normal);
  if (factor.info() != Eigen::Success)
    throw std::runtime_error("smooth_samples: the normal matrix did not factorise");
  Eigen::MatrixXd fitted = factor.solve(samples);

  // Bounds: a column that leaves them is fitted again with the samples where it did held at the bound by a
  // stiff spring (weight kPin against the residuals' 1), adding samples until none leaves; the fit then
  // bends smoothly onto the bound instead of being cut off there (a kink: a velocity jump).
  for (Eigen::Index j = 0; j < samples.cols(); ++j) {
    std::vector<bool> pinned(static_cast<std::size_t>(n), false);
    Eigen::VectorXd target = samples.col(j);
    Eigen::SparseMatrix<double> pinned_normal = normal;
    for (int round = 0; round < kPinRounds; ++round) {
      bool added = false;
      for (Eigen::Index k = 0; k < n; ++k) {
        if (pinned[static_cast<std::size_t>(k)]) continue;
        const double x = fitted(k, j);
        if (x >= lower[j] && x <= upper[j]) continue;
        pinned[static_cast<std::size_t>(k)] = true;
        target[k] = kPin * (x > upper[j] ? upper[j] : lower[j]);
        pinned_normal.coeffRef(k, k) += kPin - 1.0;
        added = true;
      }
      if (!added) break;
      const Factor pinned_factor(pinned_normal);
      if (pinned_factor.info() != Eigen::Success)
        throw std::runtime_error("smooth_samples: the normal matrix did not factorise");
      fitted.col(j) = pinned_factor.solve(target);
    }
    // What the springs leave beyond the bound (about the residual over kPin) and anything after the last
    // round.
    fitted.col(j) = fitted.col(j).cwiseMax(lower[j]).cwiseMin(upper[j]);
  }
  return fitted;
}

double smoothing_gain(double frequency, double period, double cutoff) {
  require_positive(period, "period");
  require_positive(cutoff, "cutoff");
  const double second_difference = 2.0 - 2.0 * std::cos(2.0 * std::numbers::pi * frequency * period);
  return 1.0 / (1.0 + penalty_weight(period, cutoff) * second_difference * second_difference);
}

}  // namespace mimic::trajectory
