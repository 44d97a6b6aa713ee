#include "mimic/evaluation/metrics.hpp"

#include <cmath>

#include "mimic/model/data.hpp"

namespace mimic::evaluation {

MotionEvaluation evaluate_motion(const model::Model& model, const stability::Feet& feet,
                                 const model::SampledMotion& motion, const CheckOptions& options) {
  MotionEvaluation e;
  model::Data data(model);
  const Eigen::Index n = motion.size();
  e.peak_torque = Eigen::VectorXd::Zero(model.nj);
  e.peak_torque_time = Eigen::VectorXd::Zero(model.nj);
  for (Eigen::Index k = 0; k < n; ++k) {
    const Eigen::VectorXd tau = stability::joint_torques_with_ground_reaction(
        model, data, feet, motion.phases[static_cast<std::size_t>(k)], motion.q.col(k), motion.v.col(k),
        motion.a.col(k));
    const double t = motion.times[static_cast<std::size_t>(k)];
    // Trapezoid: half weights on the end samples.
    const double h0 = k > 0 ? t - motion.times[static_cast<std::size_t>(k - 1)] : 0.0;
    const double h1 = k + 1 < n ? motion.times[static_cast<std::size_t>(k + 1)] - t : 0.0;
    e.torque_integral += 0.5 * (h0 + h1) * tau.squaredNorm();
    for (int j = 0; j < model.nj; ++j) {
      if (std::abs(tau[j]) > e.peak_torque[j]) {
        e.peak_torque[j] = std::abs(tau[j]);
        e.peak_torque_time[j] = t;
      }
    }
  }
  e.check = check_motion(model, feet, motion, options);
  return e;
}

}  // namespace mimic::evaluation
