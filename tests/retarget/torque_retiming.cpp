// The torque re-timing after Algorithm 1 (retarget/torque_retiming.hpp), on HRP-2's model: a swing of the
// right shoulder fast enough for its velocity limit but too strong for a fraction of its effort limit.
#include "mimic/retarget/torque_retiming.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "mimic/dynamics/rnea.hpp"
#include "mimic/model/data.hpp"
#include "mimic/model/robot_description.hpp"
#include "support/shared_data.hpp"

namespace mimic::retarget {
namespace {

constexpr double kRate = 120.0;  // Hz, the shipped clips' rate

struct Swing {
  model::Model model = model::load_urdf(test::hrp2_urdf().string(), model::LoadOptions::hrp2());
  int joint = model.joint_index("RARM_JOINT0");  // shoulder pitch: 160 N m, 4.17 rad/s
  // 1 s at rest, then 2 s of a swing of `amplitude` at `frequency`, then 1 s at rest (nq x N).
  Eigen::MatrixXd q(double amplitude, double frequency) const {
    const Eigen::VectorXd rest = model::default_robot_description().nominal_q(model);
    const int n = static_cast<int>(4.0 * kRate) + 1;
    Eigen::MatrixXd out = rest.replicate(1, n);
    for (int k = 0; k < n; ++k) {
      const double t = k / kRate - 1.0;
      if (t > 0.0 && t < 2.0)
        out(model.idx_q(joint), k) += amplitude * std::sin(2.0 * std::numbers::pi * frequency * t);
    }
    return out;
  }
};

// The measure of torque_retiming.hpp written out: at sample n, |tau - tau_gravity| of the joint over the
// room `limit - |tau_gravity|`, with central differences over +-h of the re-timed piecewise-linear motion.
double ratio_at(const model::Model& model, const Eigen::MatrixXd& q, const RetimedSamples& timing, int joint,
                double limit, Eigen::Index n) {
  const double h = kTorqueRetimingWindow, t = timing.times[static_cast<std::size_t>(n)];
  // The joint's angle on the piecewise-linear motion through (times[k], q(joint, k)), held outside.
  const auto angle = [&](double s) {
    const std::vector<double>& times = timing.times;
    if (s <= times.front()) return q(model.idx_q(joint), 0);
    if (s >= times.back()) return q(model.idx_q(joint), q.cols() - 1);
    std::size_t k = 0;
    while (times[k + 1] <= s) ++k;
    const double w = (s - times[k]) / (times[k + 1] - times[k]);
    const auto c = static_cast<Eigen::Index>(k);
    return q(model.idx_q(joint), c) + w * (q(model.idx_q(joint), c + 1) - q(model.idx_q(joint), c));
  };
  model::Data data(model);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(model.nv), a = Eigen::VectorXd::Zero(model.nv);
  v[model.idx_v(joint)] = (angle(t + h) - angle(t - h)) / (2.0 * h);
  a[model.idx_v(joint)] = (angle(t + h) - 2.0 * angle(t) + angle(t - h)) / (h * h);
  const double gravity = dynamics::gravity_torques(model, data, q.col(n))[model.idx_v(joint)];
  const double total = dynamics::rnea(model, data, q.col(n), v, a)[model.idx_v(joint)];
  return std::abs(total - gravity) / (limit - std::abs(gravity));
}

TEST(TorqueRetiming, AMotionWithinTheLimitsKeepsAlgorithm1sTiming) {
  const Swing swing;
  const Eigen::MatrixXd q = swing.q(0.2, 0.5);  // 0.63 rad/s, 2 rad/s^2
  RetimedSamples timing =
      reparameterize_time(q.bottomRows(swing.model.nj), kRate, swing.model.velocity_limit);
  const RetimedSamples algorithm_1 = timing;
  const TorqueRetiming result = limit_torques(swing.model, q, 0.8, timing);
  EXPECT_EQ(result.passes, 0);
  EXPECT_LE(result.peak_ratio_before, 1.0);
  EXPECT_EQ(timing.interval_steps, algorithm_1.interval_steps);
  EXPECT_EQ(timing.times, algorithm_1.times);
}

TEST(TorqueRetiming, AStrongSwingIsSlowedWhereItIsStrongOnly) {
  const Swing swing;
  // 0.6 rad at 1 Hz: 3.8 rad/s (within 4.17 rad/s: Algorithm 1 keeps it), 24 rad/s^2, which asks the
  // shoulder more than 20% of its 160 N m (the arm's ~1.5 kg m^2 about the shoulder).
  const Eigen::MatrixXd q = swing.q(0.6, 1.0);
  RetimedSamples timing =
      reparameterize_time(q.bottomRows(swing.model.nj), kRate, swing.model.velocity_limit);
  ASSERT_EQ(timing.slow_down(), 1.0);
  const double scale = 0.2;
  const TorqueRetiming result = limit_torques(swing.model, q, scale, timing);
  EXPECT_GT(result.peak_ratio_before, 1.0);
  EXPECT_EQ(result.peak_joint, "RARM_JOINT0");
  EXPECT_GE(result.passes, 1);
  EXPECT_LE(result.peak_ratio, 1.0);
  EXPECT_GT(timing.slow_down(), 1.0);
  // The still second before the swing, less the window, keeps one period per interval.
  for (int k = 0; k + 1 < static_cast<int>(kRate * (1.0 - kTorqueRetimingWindow)) - 1; ++k)
    EXPECT_EQ(timing.interval_steps[static_cast<std::size_t>(k)], 1) << k;
  // The measure recomputed independently holds at every sample (to rounding).
  const double limit = scale * swing.model.effort_limit[swing.joint];
  for (Eigen::Index n = 0; n < q.cols(); ++n)
    EXPECT_LE(ratio_at(swing.model, q, timing, swing.joint, limit, n), 1.0 + 1e-9) << n;
}

TEST(TorqueRetiming, RejectsAScaleOutsideZeroOneAndMismatchedSizes) {
  const Swing swing;
  const Eigen::MatrixXd q = swing.q(0.2, 0.5);
  RetimedSamples timing =
      reparameterize_time(q.bottomRows(swing.model.nj), kRate, swing.model.velocity_limit);
  EXPECT_THROW(limit_torques(swing.model, q, 0.0, timing), std::invalid_argument);
  EXPECT_THROW(limit_torques(swing.model, q, 1.5, timing), std::invalid_argument);
  EXPECT_THROW(limit_torques(swing.model, q.leftCols(10), 0.8, timing), std::invalid_argument);
}

}  // namespace
}  // namespace mimic::retarget
