#include "mimic/smoothing/support_projection.hpp"

#include <Eigen/Geometry>
#include <array>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/io/number_text.hpp"
#include "mimic/model/data.hpp"
#include "mimic/spatial/explog.hpp"
#include "mimic/stability/leg_ik.hpp"

namespace mimic::smoothing {

using spatial::SE3;

ProjectionReport project_support_feet(const model::Model& model, const stability::Feet& feet,
                                      const stability::SampledMotion& planned, Eigen::MatrixXd& q) {
  ProjectionReport report;
  const std::array<int, 2> frames = {feet.right_sole_frame, feet.left_sole_frame};
  const std::array<stability::LegKinematics, 2> legs = {
      stability::LegKinematics(model, model.frames[static_cast<std::size_t>(frames[0])].name),
      stability::LegKinematics(model, model.frames[static_cast<std::size_t>(frames[1])].name)};
  model::Data data(model);
  std::array<SE3, 2> anchor;  // planned sole pose where the current support of each foot began
  std::array<bool, 2> supporting = {false, false};
  for (Eigen::Index k = 0; k < q.cols(); ++k) {
    const stability::ContactPhase phase = planned.phases[static_cast<std::size_t>(k)];
    const std::array<bool, 2> contact = {stability::right_foot_in_contact(phase),
                                         stability::left_foot_in_contact(phase)};
    bool planned_fk = false;
    for (int f = 0; f < 2; ++f) {
      if (contact[f] && !supporting[f]) {
        if (!planned_fk) dynamics::forward_kinematics(model, data, planned.q.col(k));
        planned_fk = true;
        anchor[f] = dynamics::update_frame_placement(model, data, frames[f]);
      }
      supporting[f] = contact[f];
    }
    if (!contact[0] && !contact[1]) continue;
    const SE3 root(Eigen::Quaterniond(q(6, k), q(3, k), q(4, k), q(5, k)).normalized().toRotationMatrix(),
                   q.col(k).head<3>());
    dynamics::forward_kinematics(model, data, q.col(k));
    for (int f = 0; f < 2; ++f) {
      if (!contact[f]) continue;
      const SE3 pose = dynamics::update_frame_placement(model, data, frames[f]);
      report.max_foot_error = std::max(report.max_foot_error, (pose.p - anchor[f].p).norm());
      report.max_foot_rotation =
          std::max(report.max_foot_rotation, spatial::log3(anchor[f].R.transpose() * pose.R).norm());
      stability::LegAngles seed;
      for (int i = 0; i < 6; ++i) seed[i] = q(model.idx_q(legs[f].joints()[i]), k);
      const stability::LegIkResult ik = legs[f].solve(root, anchor[f], seed);
      if (!ik.ok()) {
        throw InfeasibleError("smoothing: the " + std::string(f == 0 ? "right" : "left") +
                              " leg cannot keep its support foot at t = " +
                              io::format_number(planned.times[static_cast<std::size_t>(k)]) +
                              " s: " + stability::to_string(ik.status));
      }
      for (int i = 0; i < 6; ++i) {
        double& angle = q(model.idx_q(legs[f].joints()[i]), k);
        report.max_angle_change = std::max(report.max_angle_change, std::abs(ik.angles[i] - angle));
        angle = ik.angles[i];
      }
    }
  }
  return report;
}

}  // namespace mimic::smoothing
