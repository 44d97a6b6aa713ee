#include "mimic/stability/contact_detection.hpp"

#include <algorithm>

#include "mimic/dynamics/kinematics.hpp"

namespace mimic::stability {

std::vector<model::ContactPhase> detect_contact_phases(const model::Model& model, const Feet& feet,
                                                       const std::vector<double>& times,
                                                       const Eigen::MatrixXd& q,
                                                       const ContactDetectionOptions& options) {
  const Eigen::Index n = q.cols();
  model::Data data(model);
  Eigen::Matrix3Xd right(3, n), left(3, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    dynamics::forward_kinematics(model, data, q.col(k));
    right.col(k) = dynamics::update_frame_placement(model, data, feet.right_sole_frame).p;
    left.col(k) = dynamics::update_frame_placement(model, data, feet.left_sole_frame).p;
  }
  const double ground = n > 0 ? std::min(right.row(2).minCoeff(), left.row(2).minCoeff()) : 0.0;
  auto speed = [&](const Eigen::Matrix3Xd& p, Eigen::Index k) {
    if (n < 2) return 0.0;
    const Eigen::Index k0 = std::max<Eigen::Index>(k - 1, 0), k1 = std::min<Eigen::Index>(k + 1, n - 1);
    return (p.col(k1) - p.col(k0)).norm() /
           (times[static_cast<std::size_t>(k1)] - times[static_cast<std::size_t>(k0)]);
  };
  std::vector<model::ContactPhase> phases(static_cast<std::size_t>(n), model::ContactPhase::kDoubleSupport);
  for (Eigen::Index k = 0; k < n; ++k) {
    const bool r =
        right(2, k) - ground <= options.height_tolerance && speed(right, k) <= options.speed_tolerance;
    const bool l =
        left(2, k) - ground <= options.height_tolerance && speed(left, k) <= options.speed_tolerance;
    model::ContactPhase phase = model::ContactPhase::kDoubleSupport;
    if (r && !l) phase = model::ContactPhase::kRightSupport;
    if (l && !r) phase = model::ContactPhase::kLeftSupport;
    if (!r && !l)
      phase =
          right(2, k) <= left(2, k) ? model::ContactPhase::kRightSupport : model::ContactPhase::kLeftSupport;
    phases[static_cast<std::size_t>(k)] = phase;
  }
  return phases;
}

}  // namespace mimic::stability
