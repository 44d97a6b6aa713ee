#include "mimic/retarget/torque_retiming.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/rnea.hpp"
#include "mimic/model/data.hpp"

namespace mimic::retarget {

namespace {

// Passes of lengthening: each multiplies an offending interval by at least the square root of its
// sample's ratio, so one or two passes settle a sample; the rest settle the neighbours a lengthened
// stretch slows down or speeds up against.
constexpr int kMaxPasses = 40;
// The same guard as Algorithm 1's: an interval this long means a broken input, not a strong motion.
constexpr double kMaxSteps = 1e8;

// The joint angles of the piecewise-linear motion through (times[n], joints.col(n)) at t, held before the
// first and after the last sample (the reference starts and ends at rest).
Eigen::VectorXd joints_at(const Eigen::MatrixXd& joints, const std::vector<double>& times, double t) {
  if (t <= times.front()) return joints.col(0);
  if (t >= times.back()) return joints.col(joints.cols() - 1);
  const auto after = std::upper_bound(times.begin(), times.end(), t);
  const auto i = static_cast<Eigen::Index>(after - times.begin()) - 1;
  const double span = times[static_cast<std::size_t>(i) + 1] - times[static_cast<std::size_t>(i)];
  const double s = span > 0.0 ? (t - times[static_cast<std::size_t>(i)]) / span : 0.0;
  return joints.col(i) + s * (joints.col(i + 1) - joints.col(i));
}

// Per sample, the largest |tau_dyn| / (scale * limit - |tau_g|) over the bounded joints.
struct SampleRatios {
  Eigen::VectorXd ratio;
  double peak = 0.0;
  int peak_joint = -1;
};

SampleRatios sample_ratios(const model::Model& model, const Eigen::MatrixXd& q, const Eigen::VectorXd& limit,
                           const RetimedSamples& timing) {
  model::Data data(model);
  const Eigen::MatrixXd joints = q.bottomRows(model.nj);
  const double h = kTorqueRetimingWindow;
  SampleRatios out;
  out.ratio = Eigen::VectorXd::Zero(q.cols());
  Eigen::VectorXd v = Eigen::VectorXd::Zero(model.nv), a = Eigen::VectorXd::Zero(model.nv);
  for (Eigen::Index n = 0; n < q.cols(); ++n) {
    const double t = timing.times[static_cast<std::size_t>(n)];
    const Eigen::VectorXd before = joints_at(joints, timing.times, t - h);
    const Eigen::VectorXd after = joints_at(joints, timing.times, t + h);
    const Eigen::VectorXd here = joints.col(n);
    v.tail(model.nj) = (after - before) / (2.0 * h);
    a.tail(model.nj) = (after - 2.0 * here + before) / (h * h);
    const Eigen::VectorXd gravity = dynamics::gravity_torques(model, data, q.col(n)).tail(model.nj);
    const Eigen::VectorXd total = dynamics::rnea(model, data, q.col(n), v, a).tail(model.nj);
    for (int j = 0; j < model.nj; ++j) {
      if (!std::isfinite(limit[j])) continue;
      const double room = limit[j] - std::abs(gravity[j]);
      if (!(room > 0.0)) continue;  // gravity alone: no timing helps
      const double r = std::abs(total[j] - gravity[j]) / room;
      if (r > out.ratio[n]) out.ratio[n] = r;
      if (r > out.peak) out.peak = r, out.peak_joint = j;
    }
  }
  return out;
}

}  // namespace

TorqueRetiming limit_torques(const model::Model& model, const Eigen::MatrixXd& q, double torque_scale,
                             RetimedSamples& timing) {
  if (!(torque_scale > 0.0 && torque_scale <= 1.0))
    throw std::invalid_argument("limit_torques: the torque scale must be in (0, 1]");
  if (q.rows() != model.nq || q.cols() != timing.sample_count() ||
      timing.interval_steps.size() + 1 != timing.times.size())
    throw std::invalid_argument("limit_torques: need one configuration (size nq) per re-timed sample");
  TorqueRetiming result;
  if (q.cols() < 2) return result;
  Eigen::VectorXd limit(model.nj);
  for (int j = 0; j < model.nj; ++j) {
    const double effort = model.effort_limit[j];
    limit[j] = effort > 0.0 && std::isfinite(effort) ? torque_scale * effort
                                                     : std::numeric_limits<double>::infinity();
  }
  const double h = kTorqueRetimingWindow;
  SampleRatios ratios = sample_ratios(model, q, limit, timing);
  result.peak_ratio_before = ratios.peak;
  if (ratios.peak_joint >= 0)
    result.peak_joint = model.joint_names[static_cast<std::size_t>(ratios.peak_joint)];
  while (ratios.peak > 1.0 && result.passes < kMaxPasses) {
    ++result.passes;
    // Interval i is lengthened by the worst sample whose window it overlaps.
    std::vector<double> factor(timing.interval_steps.size(), 1.0);
    for (Eigen::Index n = 0; n < q.cols(); ++n) {
      if (ratios.ratio[n] <= 1.0) continue;
      const double t = timing.times[static_cast<std::size_t>(n)];
      for (std::size_t i = 0; i < factor.size(); ++i) {
        if (timing.times[i + 1] < t - h) continue;
        if (timing.times[i] > t + h) break;
        factor[i] = std::max(factor[i], std::sqrt(ratios.ratio[n]));
      }
    }
    long long periods = 0;
    for (std::size_t i = 0; i < factor.size(); ++i) {
      int& k = timing.interval_steps[i];
      if (factor[i] > 1.0) {
        const double stretched = std::max(static_cast<double>(k) + 1.0, std::ceil(k * factor[i]));
        if (!(stretched <= kMaxSteps))
          throw InputError(
              "time re-parameterization: keeping the torque limits needs an interval of more than " +
              std::to_string(static_cast<long long>(kMaxSteps)) + " source periods");
        k = static_cast<int>(stretched);
      }
      periods += k;
      timing.times[i + 1] = static_cast<double>(periods) / timing.source_rate;
    }
    ratios = sample_ratios(model, q, limit, timing);
  }
  result.peak_ratio = ratios.peak;
  return result;
}

}  // namespace mimic::retarget
