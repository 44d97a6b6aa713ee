#include "mimic/stability/contact_detection.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "mimic/dynamics/kinematics.hpp"

namespace mimic::stability {
namespace {

using spatial::SE3;
using spatial::Vec3;

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const auto middle = values.begin() + static_cast<long>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

// The standard deviation of white noise on a signal, from the median absolute second difference over the
// samples k where `use[k]`: for noise of deviation sigma, x[k+1] - 2 x[k] + x[k-1] has deviation
// sqrt(6) sigma, and the median absolute value of a normal variable is 0.6745 of its deviation. A smooth
// motion adds only dt^2 x'', which the median ignores where most used samples are still.
double noise_deviation(const std::vector<double>& x, const std::vector<bool>& use) {
  std::vector<double> d2;
  for (std::size_t k = 1; k + 1 < x.size(); ++k)
    if (use[k]) d2.push_back(std::abs(x[k + 1] - 2.0 * x[k] + x[k - 1]));
  return median(std::move(d2)) / (0.6745 * std::sqrt(6.0));
}

std::array<Vec3, 4> sole_corners(const model::SoleRectangle& o) {
  return {Vec3(o.x_min, o.y_min, 0.0), Vec3(o.x_max, o.y_min, 0.0), Vec3(o.x_max, o.y_max, 0.0),
          Vec3(o.x_min, o.y_max, 0.0)};
}

// How far the sole is from another placement: the largest displacement of its corners (translation and
// rotation in metres, as the floor feels them).
double placement_distance(const SE3& a, const SE3& b, const std::array<Vec3, 4>& corners) {
  double d = (a.p - b.p).norm();
  for (const Vec3& c : corners) d = std::max(d, ((a.R * c + a.p) - (b.R * c + b.p)).norm());
  return d;
}

// Runs [first, last] (sample indices, inclusive) of true in `flags`.
std::vector<std::pair<std::size_t, std::size_t>> runs(const std::vector<bool>& flags) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t k = 0; k < flags.size(); ++k) {
    if (!flags[k]) continue;
    if (out.empty() || out.back().second + 1 != k)
      out.emplace_back(k, k);
    else
      out.back().second = k;
  }
  return out;
}

}  // namespace

std::vector<bool> detect_foot_support(const std::vector<double>& times, const std::vector<SE3>& sole,
                                      const model::SoleRectangle& outline, double floor,
                                      const ContactDetectionOptions& options) {
  const std::size_t n = sole.size();
  std::vector<bool> support(n, false);
  if (n == 0) return support;
  const auto corners = sole_corners(outline);

  // The noise where the foot is low (within the largest height tolerance), where a still foot makes the
  // second differences pure noise.
  std::vector<double> height(n);
  std::vector<bool> low(n);
  for (std::size_t k = 0; k < n; ++k) {
    height[k] = sole[k].p.z() - floor;
    low[k] = height[k] <= options.max_height_tolerance;
  }
  double placement_noise = 0.0;
  for (const Vec3& c : corners) {
    for (int axis = 0; axis < 3; ++axis) {
      std::vector<double> x(n);
      for (std::size_t k = 0; k < n; ++k) x[k] = (sole[k].R * c + sole[k].p)[axis];
      placement_noise = std::max(placement_noise, noise_deviation(x, low));
    }
  }
  const double h_on = std::clamp(options.noise_factor * noise_deviation(height, low),
                                 options.min_height_tolerance, options.max_height_tolerance);
  const double h_off = 2.0 * h_on;
  // Two noisy samples differ by sqrt(2) sigma.
  const double placement_tolerance =
      std::max(options.min_placement_tolerance, options.noise_factor * std::sqrt(2.0) * placement_noise);

  // 1. Down, with hysteresis.
  std::vector<bool> down(n, false);
  bool is_down = false;
  for (std::size_t k = 0; k < n; ++k) {
    is_down = is_down ? height[k] <= h_off : height[k] <= h_on;
    down[k] = is_down;
  }
  // 2. Short lifts between two downs bridged.
  auto down_runs = runs(down);
  for (std::size_t r = 1; r < down_runs.size(); ++r) {
    const std::size_t gap_first = down_runs[r - 1].second + 1, gap_last = down_runs[r].first - 1;
    // The gap lasts from the last down sample to the next one.
    if (times[gap_last + 1] - times[gap_first - 1] < options.min_gap)
      std::fill(down.begin() + static_cast<long>(gap_first), down.begin() + static_cast<long>(gap_last + 1),
                true);
  }
  down_runs = runs(down);

  // 3. Each run trimmed at its ends to the samples where the foot stands at its placement.
  auto placed_from = [&](std::size_t k, std::size_t last) {
    // Whether the foot stays within the tolerance of its pose at k from k over edge_duration towards
    // `last` (the run's other end).
    const int step = last >= k ? 1 : -1;
    for (std::size_t j = k; j != last;) {
      j = static_cast<std::size_t>(static_cast<long>(j) + step);
      if (std::abs(times[j] - times[k]) > options.edge_duration) break;
      if (placement_distance(sole[j], sole[k], corners) > placement_tolerance) return false;
    }
    return true;
  };
  for (const auto& [a, b] : down_runs) {
    // Touchdown: the first sample, within edge_duration of the run's start, from which the foot stays at
    // its placement; none: the foot moves on the floor for longer than a swing's slow end, which is a
    // slide (support, and check's slip). Lift-off likewise, backwards from the run's end.
    // A run that the motion's start (end) cuts has no touchdown (lift-off) in it to date.
    std::size_t s = a, e = b;
    for (std::size_t k = a; a > 0 && k <= b && times[k] - times[a] <= options.edge_duration; ++k) {
      if (placed_from(k, b)) {
        s = k;
        break;
      }
    }
    for (std::size_t k = b; b + 1 < n && k >= s && times[b] - times[k] <= options.edge_duration; --k) {
      if (placed_from(k, s)) {
        e = k;
        break;
      }
      if (k == 0) break;
    }
    // 4. Too short to be a support, unless the motion's start or end cuts it (a clip of a stance).
    if (e < s) continue;
    if (times[e] - times[s] < options.min_support && s > 0 && e + 1 < n) continue;
    std::fill(support.begin() + static_cast<long>(s), support.begin() + static_cast<long>(e + 1), true);
  }
  return support;
}

std::vector<model::ContactPhase> detect_contact_phases(const std::vector<double>& times,
                                                       const std::vector<SE3>& right_sole,
                                                       const std::vector<SE3>& left_sole,
                                                       const model::SoleRectangle& right_outline,
                                                       const model::SoleRectangle& left_outline,
                                                       const ContactDetectionOptions& options) {
  const std::size_t n = right_sole.size();
  // The floor: on flat ground the lower foot is on it at (nearly) every sample, so the median of its
  // height is the floor's level, where the minimum would be its noise's lowest excursion.
  std::vector<double> lower(n);
  for (std::size_t k = 0; k < n; ++k) lower[k] = std::min(right_sole[k].p.z(), left_sole[k].p.z());
  const double floor = median(lower);
  const std::vector<bool> right = detect_foot_support(times, right_sole, right_outline, floor, options);
  const std::vector<bool> left = detect_foot_support(times, left_sole, left_outline, floor, options);
  std::vector<model::ContactPhase> phases(n, model::ContactPhase::kDoubleSupport);
  for (std::size_t k = 0; k < n; ++k) {
    if (right[k] && !left[k]) phases[k] = model::ContactPhase::kRightSupport;
    if (left[k] && !right[k]) phases[k] = model::ContactPhase::kLeftSupport;
    if (!right[k] && !left[k])
      phases[k] = right_sole[k].p.z() <= left_sole[k].p.z() ? model::ContactPhase::kRightSupport
                                                            : model::ContactPhase::kLeftSupport;
  }
  return phases;
}

std::vector<model::ContactPhase> detect_contact_phases(const model::Model& model, const Feet& feet,
                                                       const std::vector<double>& times,
                                                       const Eigen::MatrixXd& q,
                                                       const ContactDetectionOptions& options) {
  const auto n = static_cast<std::size_t>(q.cols());
  model::Data data(model);
  std::vector<SE3> right(n), left(n);
  for (std::size_t k = 0; k < n; ++k) {
    dynamics::forward_kinematics(model, data, q.col(static_cast<Eigen::Index>(k)));
    right[k] = dynamics::update_frame_placement(model, data, feet.right_sole_frame);
    left[k] = dynamics::update_frame_placement(model, data, feet.left_sole_frame);
  }
  return detect_contact_phases(times, right, left, feet.right_outline, feet.left_outline, options);
}

}  // namespace mimic::stability
