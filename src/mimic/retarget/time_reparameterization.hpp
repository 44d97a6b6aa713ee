// Time re-parameterization of a captured motion so that the robot can follow it (seed 000, section III,
// Algorithm 1), and resampling of the re-timed samples onto the uniform rate of the robot controller.
//
// Algorithm 1 keeps the samples and stretches the time between them: interval n (samples n -> n+1)
// starts at dt = 1/f and grows by 1/f until |q(n+1) - q(n)| / dt <= qdot+ for every joint. The motion is
// therefore slowed only where it is too fast, by an integer number of source periods per interval.
//
// Samples are columns (one column per sample). Resampling interpolates linearly between the re-timed
// samples (a configuration's base pose: position linearly, orientation along the geodesic). Linear
// interpolation keeps the velocity bound: on each re-timed interval the motion has the constant slope
// Δq/dt_n, which Algorithm 1 made <= qdot+, and the finite difference between two output samples is an
// average of those slopes, so it is <= qdot+ too (a smoother interpolant, e.g. a cubic spline, would
// overshoot the bound).
#pragma once

#include <Eigen/Core>
#include <span>
#include <vector>

#include "mimic/model/model.hpp"

namespace mimic::retarget {

// The result of Algorithm 1 on N samples taken at `source_rate`.
struct RetimedSamples {
  double source_rate = 0.0;         // f, samples per second of the input
  std::vector<int> interval_steps;  // size N-1: interval n lasts interval_steps[n] / f (>= 1)
  std::vector<double> times;        // size N: re-timed time of every input sample, times[0] = 0

  int sample_count() const { return static_cast<int>(times.size()); }
  double source_duration() const;  // (N - 1) / f
  double duration() const;         // times.back() (0 for N <= 1)
  // duration() / source_duration(); 1 when the motion is not slowed or has fewer than two samples.
  double slow_down() const;
};

// Algorithm 1 of seed 000. `samples` is nq x N (one column per input sample), `velocity_limit` the nq
// limits qdot+ (rad/s; +inf means unconstrained), and the limits actually enforced are
// velocity_scale * velocity_limit (e.g. 0.9 to leave a margin). Throws InputError when a sample holds a
// NaN or an infinite value, and std::invalid_argument for a non-positive rate, scale or limit or
// mismatched sizes.
RetimedSamples reparameterize_time(const Eigen::MatrixXd& samples, double source_rate,
                                   const Eigen::VectorXd& velocity_limit, double velocity_scale = 1.0);

// Number of source periods interval (from -> to) needs under the limits (the inner while-loop of
// Algorithm 1): the smallest k >= 1 with |to - from| * f <= limit * k for every coordinate.
int interval_steps(const Eigen::Ref<const Eigen::VectorXd>& from, const Eigen::Ref<const Eigen::VectorXd>& to,
                   double source_rate, const Eigen::VectorXd& limit);

// Where output sample m of a uniform resampling falls: between input samples `index` and index + 1 at
// fraction `weight` in [0, 1) of the interval, or exactly on input sample `index` with weight 0.
struct InterpolationPoint {
  Eigen::Index index = 0;
  double weight = 0.0;
};

// The points t = m / rate for m = 0 .. ceil(times.back() * rate) of the piecewise-linear motion through
// (times[i], sample i); past times.back() the last sample is held, so the output starts with the first
// sample and ends with the last. `times` must be non-decreasing and non-empty (std::invalid_argument).
std::vector<InterpolationPoint> uniform_points(std::span<const double> times, double rate);

// Samples the piecewise-linear motion through (times[i], samples.col(i)) at uniform_points(times, rate).
// times.size() == samples.cols() >= 1.
Eigen::MatrixXd resample_uniform(const Eigen::MatrixXd& samples, std::span<const double> times, double rate);

// The configuration a fraction s in [0, 1] of the way from q0 to q1 (size model.nq): the base position and
// the joints linearly, the base orientation along the geodesic R0 exp(s log(R0^T R1)) (slerp), so that a
// turning waist keeps a unit rotation and turns at a constant rate. s = 0 gives q0's values exactly.
Eigen::VectorXd interpolate_configuration(const model::Model& model,
                                          const Eigen::Ref<const Eigen::VectorXd>& q0,
                                          const Eigen::Ref<const Eigen::VectorXd>& q1, double s);

// The configurations q (nq x N) at times `times` resampled at uniform_points(times, rate) with
// interpolate_configuration.
Eigen::MatrixXd resample_configurations(const model::Model& model, const Eigen::MatrixXd& q,
                                        std::span<const double> times, double rate);

// max over consecutive samples (columns) and coordinates of |Δq| * rate / limit: <= 1 when the uniformly
// sampled motion respects the limits. 0 for fewer than two samples.
double peak_velocity_ratio(const Eigen::MatrixXd& samples, double rate,
                           const Eigen::VectorXd& velocity_limit);

}  // namespace mimic::retarget
