#include "mimic/retarget/time_reparameterization.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/spatial/explog.hpp"

namespace mimic::retarget {

namespace {

// The loop condition of Algorithm 1, |Δq| / (k / f) > qdot+, multiplied out so that no division rounds.
bool too_fast(const Eigen::Ref<const Eigen::VectorXd>& from, const Eigen::Ref<const Eigen::VectorXd>& to,
              double source_rate, const Eigen::VectorXd& limit, double k) {
  for (Eigen::Index j = 0; j < limit.size(); ++j) {
    if (std::abs(to[j] - from[j]) * source_rate > limit[j] * k) return true;
  }
  return false;
}

// Beyond this an interval would last days at any usual capture rate: the input is broken, not fast.
constexpr double kMaxSteps = 1e8;

}  // namespace

double RetimedSamples::source_duration() const {
  return times.size() < 2 ? 0.0 : static_cast<double>(times.size() - 1) / source_rate;
}

double RetimedSamples::duration() const { return times.empty() ? 0.0 : times.back(); }

double RetimedSamples::slow_down() const {
  const double original = source_duration();
  return original > 0.0 ? duration() / original : 1.0;
}

int interval_steps(const Eigen::Ref<const Eigen::VectorXd>& from, const Eigen::Ref<const Eigen::VectorXd>& to,
                   double source_rate, const Eigen::VectorXd& limit) {
  // The while-loop of Algorithm 1 ends at the smallest k with |Δq| f <= qdot+ k. Jump close to it with the
  // closed form, then let the loop's own test settle the last step so that rounding cannot disagree.
  double k = 1.0;
  for (Eigen::Index j = 0; j < limit.size(); ++j) {
    if (std::isinf(limit[j])) continue;
    k = std::max(k, std::ceil(std::abs(to[j] - from[j]) * source_rate / limit[j]));
  }
  if (!(k <= kMaxSteps)) {
    throw InputError("time re-parameterization: a step between two samples needs more than " +
                     std::to_string(static_cast<long long>(kMaxSteps)) + " source periods");
  }
  while (too_fast(from, to, source_rate, limit, k)) k += 1.0;
  while (k > 1.0 && !too_fast(from, to, source_rate, limit, k - 1.0)) k -= 1.0;
  return static_cast<int>(k);
}

RetimedSamples reparameterize_time(const Eigen::MatrixXd& samples, double source_rate,
                                   const Eigen::VectorXd& velocity_limit, double velocity_scale) {
  if (!(source_rate > 0.0) || !std::isfinite(source_rate)) {
    throw std::invalid_argument("reparameterize_time: the source rate must be positive");
  }
  if (!(velocity_scale > 0.0) || !std::isfinite(velocity_scale)) {
    throw std::invalid_argument("reparameterize_time: the velocity scale must be positive");
  }
  if (velocity_limit.size() != samples.rows()) {
    throw std::invalid_argument("reparameterize_time: " + std::to_string(velocity_limit.size()) +
                                " velocity limits for samples of size " + std::to_string(samples.rows()));
  }
  if (!(velocity_limit.array() > 0.0).all()) {
    throw std::invalid_argument("reparameterize_time: every velocity limit must be positive");
  }
  for (Eigen::Index n = 0; n < samples.cols(); ++n) {
    if (!samples.col(n).allFinite()) {
      throw InputError("time re-parameterization: sample " + std::to_string(n) +
                       " holds a NaN or an infinite value");
    }
  }

  const Eigen::VectorXd limit = velocity_scale * velocity_limit;
  RetimedSamples out;
  out.source_rate = source_rate;
  const Eigen::Index n_samples = samples.cols();
  out.times.assign(static_cast<std::size_t>(n_samples), 0.0);
  if (n_samples == 0) return out;
  out.interval_steps.resize(static_cast<std::size_t>(n_samples - 1));
  // Accumulate whole periods and divide once, so that times are exact multiples of 1/f.
  long long periods = 0;
  for (Eigen::Index n = 0; n + 1 < n_samples; ++n) {
    const int k = interval_steps(samples.col(n), samples.col(n + 1), source_rate, limit);
    out.interval_steps[static_cast<std::size_t>(n)] = k;
    periods += k;
    out.times[static_cast<std::size_t>(n + 1)] = static_cast<double>(periods) / source_rate;
  }
  return out;
}

std::vector<InterpolationPoint> uniform_points(std::span<const double> times, double rate) {
  if (!(rate > 0.0) || !std::isfinite(rate))
    throw std::invalid_argument("resample_uniform: rate must be positive");
  if (times.empty()) throw std::invalid_argument("resample_uniform: need at least one sample");
  if (!std::is_sorted(times.begin(), times.end())) {
    throw std::invalid_argument("resample_uniform: times must be non-decreasing");
  }
  const double t0 = times.front();
  const double span = times.back() - t0;
  // A relative slack keeps a duration that is a whole number of output periods, up to rounding, from
  // growing a spurious extra sample.
  const auto last = static_cast<Eigen::Index>(std::ceil(span * rate * (1.0 - 1e-12)));
  std::vector<InterpolationPoint> points(static_cast<std::size_t>(last + 1));
  std::size_t i = 0;  // interval [times[i], times[i+1]] holding t; advances monotonically
  for (Eigen::Index m = 0; m <= last; ++m) {
    InterpolationPoint& point = points[static_cast<std::size_t>(m)];
    const double t = std::min(t0 + static_cast<double>(m) / rate, times.back());
    while (i + 2 < times.size() && times[i + 1] <= t) ++i;
    if (i + 1 >= times.size() || times[i + 1] <= times[i]) {
      point.index = static_cast<Eigen::Index>(std::min(i + 1, times.size() - 1));
      continue;
    }
    const double s = std::clamp((t - times[i]) / (times[i + 1] - times[i]), 0.0, 1.0);
    point.index = static_cast<Eigen::Index>(s >= 1.0 ? i + 1 : i);
    point.weight = s >= 1.0 ? 0.0 : s;
  }
  return points;
}

Eigen::MatrixXd resample_uniform(const Eigen::MatrixXd& samples, std::span<const double> times, double rate) {
  if (static_cast<Eigen::Index>(times.size()) != samples.cols())
    throw std::invalid_argument("resample_uniform: need one time per sample");
  const std::vector<InterpolationPoint> points = uniform_points(times, rate);
  Eigen::MatrixXd out(samples.rows(), static_cast<Eigen::Index>(points.size()));
  for (std::size_t m = 0; m < points.size(); ++m) {
    const auto [a, s] = points[m];
    // a + s (b - a) rather than (1 - s) a + s b: a constant coordinate then stays exactly constant.
    if (s > 0.0) {
      out.col(static_cast<Eigen::Index>(m)) = samples.col(a) + s * (samples.col(a + 1) - samples.col(a));
    } else {
      out.col(static_cast<Eigen::Index>(m)) = samples.col(a);
    }
  }
  return out;
}

Eigen::VectorXd interpolate_configuration(const model::Model& model,
                                          const Eigen::Ref<const Eigen::VectorXd>& q0,
                                          const Eigen::Ref<const Eigen::VectorXd>& q1, double s) {
  if (s == 0.0) return q0;
  Eigen::VectorXd q(model.nq);
  q.tail(model.nj) = q0.tail(model.nj) + s * (q1.tail(model.nj) - q0.tail(model.nj));
  if (model.has_free_flyer()) {
    const spatial::SE3 a = model::base_pose(model, q0), b = model::base_pose(model, q1);
    // Position and orientation apart (not the SE3 geodesic, whose screw motion would bend the waist's path).
    const Eigen::Vector3d p = a.p + s * (b.p - a.p);
    // An unchanged orientation (the upright waist of an upper-body retarget) needs no slerp.
    const Eigen::Matrix3d R =
        a.R == b.R ? a.R : Eigen::Matrix3d(a.R * spatial::exp3(s * spatial::log3(a.R.transpose() * b.R)));
    model::set_base_pose(model, q, spatial::SE3(R, p));
  }
  return q;
}

Eigen::MatrixXd resample_configurations(const model::Model& model, const Eigen::MatrixXd& q,
                                        std::span<const double> times, double rate) {
  if (q.rows() != model.nq || static_cast<Eigen::Index>(times.size()) != q.cols())
    throw std::invalid_argument("resample_configurations: need one configuration (size nq) per time");
  const std::vector<InterpolationPoint> points = uniform_points(times, rate);
  Eigen::MatrixXd out(model.nq, static_cast<Eigen::Index>(points.size()));
  for (std::size_t m = 0; m < points.size(); ++m) {
    const auto [a, s] = points[m];
    out.col(static_cast<Eigen::Index>(m)) =
        s > 0.0 ? interpolate_configuration(model, q.col(a), q.col(a + 1), s) : Eigen::VectorXd(q.col(a));
  }
  return out;
}

double peak_velocity_ratio(const Eigen::MatrixXd& samples, double rate,
                           const Eigen::VectorXd& velocity_limit) {
  double peak = 0.0;
  for (Eigen::Index n = 0; n + 1 < samples.cols(); ++n) {
    for (Eigen::Index j = 0; j < samples.rows(); ++j) {
      const double v = std::abs(samples(j, n + 1) - samples(j, n)) * rate;
      peak = std::max(peak, v / velocity_limit[j]);
    }
  }
  return peak;
}

}  // namespace mimic::retarget
