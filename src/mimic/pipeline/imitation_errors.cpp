#include "mimic/pipeline/imitation_errors.hpp"

#include <algorithm>
#include <cmath>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/motion/active_joints.hpp"

namespace mimic::pipeline {

evaluation::ImitationErrors imitation_errors(const Robot& robot, const retarget::ReferenceMotion& reference,
                                             const model::SampledMotion& motion,
                                             const std::function<double(double)>& reference_time) {
  const model::Model& model = robot.model;
  const model::OperationalFrames& names = robot.description.frames;
  const auto joints = motion::active_joint_indices(model, robot.description);
  const int frames[3] = {model.frame_index(names.gaze), model.frame_index(names.right_gripper),
                         model.frame_index(names.left_gripper)};
  model::Data data(model);
  double joint_sq = 0.0, ee_sq = 0.0, ee_max = 0.0;
  Eigen::Index n = 0;
  for (Eigen::Index k = 0; k < motion.size(); ++k) {
    const double time = motion.times[static_cast<std::size_t>(k)];
    const double t = reference_time ? reference_time(time) : time;
    const auto r = static_cast<Eigen::Index>(std::lround(t * reference.rate));
    if (r < 0 || r >= reference.motion.size()) continue;
    ++n;
    for (int j : joints) {
      const double e = motion.q(model.idx_q(j), k) - reference.motion.q(model.idx_q(j), r);
      joint_sq += e * e;
    }
    dynamics::forward_kinematics(model, data, motion.q.col(k));
    const spatial::SE3& oMb = data.oMi[0];
    for (int e = 0; e < 3; ++e) {
      const Eigen::Vector3d p = oMb.act_inv(dynamics::update_frame_placement(model, data, frames[e]).p);
      const double err = (p - reference.end_effectors.block<3, 1>(3 * e, r)).norm();
      ee_sq += err * err;
      ee_max = std::max(ee_max, err);
    }
  }
  evaluation::ImitationErrors errors;
  errors.joint_rmse =
      n > 0 ? std::sqrt(joint_sq / static_cast<double>(n * static_cast<Eigen::Index>(joints.size()))) : 0.0;
  errors.position_rms = n > 0 ? std::sqrt(ee_sq / static_cast<double>(3 * n)) : 0.0;
  errors.position_max = ee_max;
  return errors;
}

}  // namespace mimic::pipeline
