#include "mimic/motion/torque_objective_start.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <utility>

#include "mimic/dynamics/rnea_derivatives.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/motion/collision_screening.hpp"

namespace mimic::motion {

namespace {

// A mean tau^T tau (N^2 m^2) below this is zero to rounding: torques of a micro-newton-metre, where the
// limits are tens of newton-metres; the search's zero-residual minima end near 1e-20.
constexpr double kZeroPostureCost = 1e-12;

// One every half second, at least 3 (header).
std::vector<int> posture_samples(const MotionInput& input) {
  const int n = input.sample_count();
  const int count = std::max(3, static_cast<int>(std::ceil(input.duration() / 0.5)) + 1);
  std::vector<int> samples;
  for (int k = 0; k < count; ++k)
    samples.push_back(static_cast<int>(std::lround(k * (n - 1.0) / (count - 1))));
  samples.erase(std::unique(samples.begin(), samples.end()), samples.end());
  return samples;
}

// Projected Levenberg-Marquardt on the box [lower, upper] (Nielsen's damping update): the step of the
// damped Gauss-Newton model on the variables no bound holds, clipped into the box, accepted when the cost
// falls; until the free variables' gradient is below 1e-9 max(1, cost), the damping exceeds 1e12 (no
// step lowers the cost: a minimum to rounding) or 1000 steps. Returns the cost.
double minimise_posture(PostureTorqueCost& cost, const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                        Eigen::VectorXd& p) {
  p = p.cwiseMax(lower).cwiseMin(upper);
  Eigen::VectorXd r, r_trial, p_trial;
  Eigen::MatrixXd jacobian, jacobian_trial;
  cost.evaluate(p, r, &jacobian);
  double f = 0.5 * r.squaredNorm();
  double mu = 1e-3 * (jacobian.transpose() * jacobian).diagonal().maxCoeff();
  double nu = 2.0;
  for (int iteration = 0; iteration < 1000; ++iteration) {
    Eigen::VectorXd gradient = jacobian.transpose() * r;
    // A variable at a bound whose gradient points out of the box is held there (its row of the step is
    // zero), so that clipping does not shorten the free variables' step; the others must be stationary.
    Eigen::MatrixXd normal = jacobian.transpose() * jacobian;
    double stationarity = 0.0;
    for (Eigen::Index i = 0; i < p.size(); ++i) {
      const bool held = (p[i] <= lower[i] && gradient[i] > 0.0) || (p[i] >= upper[i] && gradient[i] < 0.0);
      if (!held) {
        stationarity = std::max(stationarity, std::abs(gradient[i]));
        continue;
      }
      normal.row(i).setZero();
      normal.col(i).setZero();
      normal(i, i) = 1.0;
      gradient[i] = 0.0;
    }
    if (stationarity <= 1e-9 * std::max(1.0, f)) break;
    normal.diagonal().array() += mu;
    p_trial = (p - normal.ldlt().solve(gradient)).cwiseMax(lower).cwiseMin(upper);
    // With its Jacobian: the RNEA derivatives give the torques anyway, and an accepted trial needs both.
    cost.evaluate(p_trial, r_trial, &jacobian_trial);
    const double f_trial = 0.5 * r_trial.squaredNorm();
    if (std::isfinite(f_trial) && f_trial < f) {
      p.swap(p_trial);
      r.swap(r_trial);
      jacobian.swap(jacobian_trial);
      f = f_trial;
      mu *= 1.0 / 3.0;
      nu = 2.0;
    } else {
      mu *= nu;
      nu *= 2.0;
      if (mu > 1e12) break;
    }
  }
  return f;
}

// Minimum-jerk blend s(u) = 10 u^3 - 15 u^4 + 6 u^5, u in [0, 1].
double minimum_jerk(double u) {
  u = std::clamp(u, 0.0, 1.0);
  return u * u * u * (10.0 + u * (-15.0 + 6.0 * u));
}

// s of the file comment: the ramp's duration for a move of `delta` (per active joint).
double ramp_seconds(const Eigen::VectorXd& delta, const std::vector<int>& active,
                    const model::ScaledLimits& limits, double velocity_fraction) {
  double seconds = 0.0;
  for (std::size_t i = 0; i < active.size(); ++i) {
    const double speed = velocity_fraction * limits.velocity[active[i]];
    seconds = std::max(seconds, 15.0 / 8.0 * std::abs(delta[static_cast<Eigen::Index>(i)]) / speed);
  }
  return seconds;
}

}  // namespace

PostureTorqueCost::PostureTorqueCost(const model::Model& model, std::vector<int> active,
                                     const MotionInput& input)
    : model_(model),
      active_(std::move(active)),
      input_(input),
      samples_(posture_samples(input)),
      data_(model) {}

int PostureTorqueCost::residuals() const { return static_cast<int>(samples_.size() * active_.size()); }

void PostureTorqueCost::evaluate(const Eigen::VectorXd& p, Eigen::VectorXd& r, Eigen::MatrixXd* jacobian) {
  const auto m = static_cast<Eigen::Index>(active_.size());
  const double scale = 1.0 / std::sqrt(static_cast<double>(samples_.size()));
  r.resize(residuals());
  if (jacobian != nullptr) jacobian->resize(residuals(), m);
  Eigen::VectorXd q(model_.nq), v(model_.nv), a(model_.nv);
  for (std::size_t k = 0; k < samples_.size(); ++k) {
    const int s = samples_[k];
    q = input_.motion.q.col(s);
    v = input_.motion.v.col(s);
    a = input_.motion.a.col(s);
    if (input_.rest.size() == model_.nj) {
      for (int j = 0; j < model_.nj; ++j) {
        q[model_.idx_q(j)] = input_.rest[j];
        v[model_.idx_v(j)] = 0.0;
        a[model_.idx_v(j)] = 0.0;
      }
    }
    for (Eigen::Index i = 0; i < m; ++i) {
      const int j = active_[static_cast<std::size_t>(i)];
      q[model_.idx_q(j)] = p[i];
      v[model_.idx_v(j)] = 0.0;
      a[model_.idx_v(j)] = 0.0;
    }
    dynamics::compute_rnea_derivatives(model_, data_, q, v, a);
    const auto first = static_cast<Eigen::Index>(k) * m;
    for (Eigen::Index i = 0; i < m; ++i) {
      const int row = model_.idx_v(active_[static_cast<std::size_t>(i)]);
      r[first + i] = scale * data_.tau[row];
      if (jacobian == nullptr) continue;
      for (Eigen::Index c = 0; c < m; ++c)
        (*jacobian)(first + i, c) =
            scale * data_.dtau_dq(row, model_.idx_v(active_[static_cast<std::size_t>(c)]));
    }
  }
}

std::optional<TorqueObjectiveStart> torque_objective_start(
    const model::Model& model, const std::vector<int>& active, const MotionInput& input,
    const model::ScaledLimits& limits, double velocity_fraction, const geometry::CollisionModel* collision,
    double safety_distance) {
  const int n = input.sample_count();
  const auto m = static_cast<Eigen::Index>(active.size());
  Eigen::VectorXd lower(m), upper(m), first(m), last(m);
  for (Eigen::Index i = 0; i < m; ++i) {
    const int j = active[static_cast<std::size_t>(i)];
    lower[i] = limits.lower[j];
    upper[i] = limits.upper[j];
    first[i] = input.joint(model, j, 0);
    last[i] = input.joint(model, j, n - 1);
  }

  // The pair test of a posture: the passive joints at the first sample's (or at rest), base at the identity.
  std::vector<int> pairs;
  if (collision != nullptr) pairs = movable_pairs(model, *collision, active);
  Eigen::VectorXd configuration(model.nq);
  model::set_base_pose(model, configuration, spatial::SE3::Identity());
  configuration.tail(model.nj) =
      input.rest.size() == model.nj ? input.rest : Eigen::VectorXd(input.motion.q.col(0).tail(model.nj));
  const auto clear = [&](const Eigen::VectorXd& p) {
    if (pairs.empty()) return true;
    Eigen::MatrixXd q = configuration;
    for (Eigen::Index i = 0; i < m; ++i) q(model.idx_q(active[static_cast<std::size_t>(i)]), 0) = p[i];
    return scan_pairs(model, *collision, pairs, q, safety_distance).near_pairs.empty();
  };

  PostureTorqueCost cost(model, active, input);
  const Eigen::VectorXd starts[] = {first, last, 0.5 * (lower + upper), Eigen::VectorXd::Zero(m)};
  std::optional<TorqueObjectiveStart> best;
  for (const Eigen::VectorXd& start : starts) {
    // The cost is >= 0: a clear posture at zero torque (the arms hanging: boxing on the default robot) is
    // the least one, and the remaining starts would only spend their 1000 steps on poorer minima.
    if (best && best->posture_cost <= kZeroPostureCost) break;
    Eigen::VectorXd p = start;
    const double f = minimise_posture(cost, lower, upper, p);
    if (!clear(p) || (best && 2.0 * f >= best->posture_cost)) continue;
    best.emplace();
    best->posture = p;
    best->posture_cost = 2.0 * f;
  }
  if (!best) return std::nullopt;

  const Eigen::VectorXd& posture = best->posture;
  best->ramp_in = ramp_seconds(posture - first, active, limits, velocity_fraction);
  best->ramp_out = ramp_seconds(last - posture, active, limits, velocity_fraction);
  const double duration = input.duration();
  if (best->ramp_in + best->ramp_out > duration) return std::nullopt;
  best->joints.resize(m, n);
  for (int s = 0; s < n; ++s) {
    const double t = s / input.rate;
    const double in = best->ramp_in > 0.0 ? minimum_jerk(t / best->ramp_in) : 1.0;
    const double out =
        best->ramp_out > 0.0 ? minimum_jerk((t - (duration - best->ramp_out)) / best->ramp_out) : 0.0;
    best->joints.col(s) = first + in * (posture - first) + out * (last - posture);
  }
  return best;
}

}  // namespace mimic::motion
