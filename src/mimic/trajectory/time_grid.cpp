#include "mimic/trajectory/time_grid.hpp"

#include <cmath>
#include <stdexcept>

namespace mimic::trajectory {

std::vector<double> uniform_time_grid(double t0, double tf, double dt) {
  if (!(dt > 0.0) || !(tf >= t0)) throw std::invalid_argument("uniform_time_grid: need dt > 0 and tf >= t0");
  const auto intervals = static_cast<long>(std::floor((tf - t0) / dt + 1e-9));
  std::vector<double> times(intervals + 1);
  for (long i = 0; i <= intervals; ++i) times[i] = t0 + i * dt;
  // Snap the last sample to tf when it is tf up to rounding, so that evaluation at it stays in range.
  if (std::abs(times.back() - tf) <= 1e-9 * std::max(1.0, std::abs(tf))) times.back() = tf;
  return times;
}

}  // namespace mimic::trajectory
