#include "mimic/trajectory/bspline_basis.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace mimic::trajectory {

QuarticBspline::QuarticBspline(double t0, double tf, double max_knot_spacing) : t0_(t0), tf_(tf) {
  if (!(tf > t0) || !std::isfinite(t0) || !std::isfinite(tf)) {
    throw std::invalid_argument("QuarticBspline: need finite t0 < tf, got [" + std::to_string(t0) + ", " +
                                std::to_string(tf) + "]");
  }
  if (!(max_knot_spacing > 0.0)) {
    throw std::invalid_argument("QuarticBspline: knot spacing must be positive");
  }
  // The small slack keeps e.g. 10 s / 0.1 s at 100 intervals despite rounding.
  intervals_ = static_cast<int>(std::ceil((tf - t0) / max_knot_spacing - 1e-9));
  if (intervals_ < 2) {
    throw std::invalid_argument("QuarticBspline: [" + std::to_string(t0) + ", " + std::to_string(tf) +
                                "] holds fewer than two knot intervals of " +
                                std::to_string(max_knot_spacing) + " s");
  }
  spacing_ = (tf - t0) / intervals_;
  knots_.reserve(intervals_ + 2 * kDegree + 1);
  for (int i = 0; i < kDegree; ++i) knots_.push_back(t0);
  for (int i = 0; i <= intervals_; ++i) knots_.push_back(i == intervals_ ? tf : t0 + i * spacing_);
  for (int i = 0; i < kDegree; ++i) knots_.push_back(tf);
}

BasisWindow QuarticBspline::evaluate(double t) const {
  constexpr int p = kDegree;
  const double slack = 1e-9 * (tf_ - t0_);
  if (!(t >= t0_ - slack && t <= tf_ + slack)) {
    throw std::out_of_range("QuarticBspline: t = " + std::to_string(t) + " outside [" + std::to_string(t0_) +
                            ", " + std::to_string(tf_) + "]");
  }
  t = std::clamp(t, t0_, tf_);
  const int interval = std::min(static_cast<int>((t - t0_) / spacing_), intervals_ - 1);
  const int span = interval + p;  // knots_[span] <= t < knots_[span + 1]
  const std::vector<double>& u = knots_;

  // Algorithm A2.3 of The NURBS Book with n = kMaxDerivative: ndu holds the basis functions of every
  // degree (upper triangle) and the knot differences (lower triangle).
  double ndu[p + 1][p + 1];
  double left[p + 1];
  double right[p + 1];
  ndu[0][0] = 1.0;
  for (int j = 1; j <= p; ++j) {
    left[j] = t - u[span + 1 - j];
    right[j] = u[span + j] - t;
    double saved = 0.0;
    for (int r = 0; r < j; ++r) {
      ndu[j][r] = right[r + 1] + left[j - r];
      const double temp = ndu[r][j - 1] / ndu[j][r];
      ndu[r][j] = saved + right[r + 1] * temp;
      saved = left[j - r] * temp;
    }
    ndu[j][j] = saved;
  }

  BasisWindow w;
  w.first = interval;
  for (int j = 0; j <= p; ++j) w.derivative[0][j] = ndu[j][p];

  double a[2][p + 1];
  for (int r = 0; r <= p; ++r) {
    int s1 = 0;
    int s2 = 1;
    a[0][0] = 1.0;
    for (int k = 1; k <= kMaxDerivative; ++k) {
      double d = 0.0;
      const int rk = r - k;
      const int pk = p - k;
      if (r >= k) {
        a[s2][0] = a[s1][0] / ndu[pk + 1][rk];
        d = a[s2][0] * ndu[rk][pk];
      }
      const int j1 = rk >= -1 ? 1 : -rk;
      const int j2 = r - 1 <= pk ? k - 1 : p - r;
      for (int j = j1; j <= j2; ++j) {
        a[s2][j] = (a[s1][j] - a[s1][j - 1]) / ndu[pk + 1][rk + j];
        d += a[s2][j] * ndu[rk + j][pk];
      }
      if (r <= pk) {
        a[s2][k] = -a[s1][k - 1] / ndu[pk + 1][r];
        d += a[s2][k] * ndu[r][pk];
      }
      w.derivative[k][r] = d;
      std::swap(s1, s2);
    }
  }
  double factor = p;
  for (int k = 1; k <= kMaxDerivative; ++k) {
    for (int j = 0; j <= p; ++j) w.derivative[k][j] *= factor;
    factor *= p - k;
  }
  return w;
}

}  // namespace mimic::trajectory
