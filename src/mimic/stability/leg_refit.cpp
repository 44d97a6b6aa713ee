#include "mimic/stability/leg_refit.hpp"

#include <algorithm>

#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/model/contact_phase.hpp"
#include "mimic/model/data.hpp"
#include "mimic/spatial/explog.hpp"

namespace mimic::stability {

using spatial::SE3;

Legs Legs::of(const model::Model& model, const Feet& feet) {
  const auto frame_name = [&](int frame) -> const std::string& {
    return model.frames[static_cast<std::size_t>(frame)].name;
  };
  return Legs{{LegKinematics(model, frame_name(feet.right_sole_frame)),
               LegKinematics(model, frame_name(feet.left_sole_frame))}};
}

std::array<int, 2 * kLegJoints> Legs::joints() const {
  std::array<int, 2 * kLegJoints> joints{};
  std::copy(right().joints().begin(), right().joints().end(), joints.begin());
  std::copy(left().joints().begin(), left().joints().end(), joints.begin() + kLegJoints);
  return joints;
}

LegAngles leg_angles(const model::Model& model, const LegKinematics& leg,
                     const Eigen::Ref<const Eigen::VectorXd>& q) {
  LegAngles angles;
  for (int i = 0; i < kLegJoints; ++i) angles(i) = q(model.idx_q(leg.joints()[static_cast<std::size_t>(i)]));
  return angles;
}

void set_leg_angles(const model::Model& model, const LegKinematics& leg, const LegAngles& angles,
                    Eigen::Ref<Eigen::VectorXd> q) {
  for (int i = 0; i < kLegJoints; ++i) q(model.idx_q(leg.joints()[static_cast<std::size_t>(i)])) = angles(i);
}

LegIkResult refit_leg(const model::Model& model, const LegKinematics& leg, const SE3& root, const SE3& sole,
                      Eigen::Ref<Eigen::VectorXd> q) {
  const LegIkResult result = leg.solve(root, sole, leg_angles(model, leg, q));
  if (result.ok()) set_leg_angles(model, leg, result.angles, q);
  return result;
}

LegRefit refit_legs(const model::Model& model, const Legs& legs, const SE3& root, const SE3& right_sole,
                    const SE3& left_sole, Eigen::Ref<Eigen::VectorXd> q) {
  LegRefit refit;
  for (const int side : {Legs::kRight, Legs::kLeft}) {
    refit.result = refit_leg(model, legs.leg[static_cast<std::size_t>(side)], root,
                             side == Legs::kRight ? right_sole : left_sole, q);
    if (!refit.result.ok()) {
      refit.failed_leg = side;
      break;
    }
  }
  return refit;
}

std::string describe_failure(const model::Model& model, const LegKinematics& leg, const LegIkResult& result) {
  std::string what = "the leg IK for " + leg.sole_frame() + " is " + to_string(result.status);
  if (result.status == LegIkStatus::kJointLimit) {
    const int joint = leg.joints()[static_cast<std::size_t>(result.limit_joint)];
    what += " (" + model.joint_names[static_cast<std::size_t>(joint)] + " would be at " +
            core::format_number(result.angles(result.limit_joint)) + " rad)";
  }
  // The damped Newton solve reports how near it came (the closed form has no nearest pose to report).
  if (result.status == LegIkStatus::kOutOfReach && leg.method() == LegIkMethod::kDampedNewton) {
    what += " (nearest sole pose " + core::format_number(result.position_error) + " m and " +
            core::format_number(result.rotation_error) + " rad off)";
  }
  return what;
}

SupportRefitReport refit_support_legs(const model::Model& model, const Legs& legs,
                                      const model::SampledMotion& planned, Eigen::MatrixXd& q) {
  SupportRefitReport report;
  const std::array<int, 2> frames = {model.frame_index(legs.right().sole_frame()),
                                     model.frame_index(legs.left().sole_frame())};
  model::Data data(model);
  std::array<SE3, 2> anchor;  // planned sole pose where the current support of each foot began
  std::array<bool, 2> supporting = {false, false};
  for (Eigen::Index k = 0; k < q.cols(); ++k) {
    const model::ContactPhase phase = planned.phases[static_cast<std::size_t>(k)];
    const std::array<bool, 2> contact = {model::right_foot_in_contact(phase),
                                         model::left_foot_in_contact(phase)};
    bool planned_fk = false;
    for (std::size_t f = 0; f < 2; ++f) {
      if (contact[f] && !supporting[f]) {
        if (!planned_fk) dynamics::forward_kinematics(model, data, planned.q.col(k));
        planned_fk = true;
        anchor[f] = dynamics::update_frame_placement(model, data, frames[f]);
      }
      supporting[f] = contact[f];
    }
    if (!contact[0] && !contact[1]) continue;
    const SE3 root = model::base_pose(model, q.col(k));
    dynamics::forward_kinematics(model, data, q.col(k));
    for (std::size_t f = 0; f < 2; ++f) {
      if (!contact[f]) continue;
      const SE3 pose = dynamics::update_frame_placement(model, data, frames[f]);
      report.max_foot_error = std::max(report.max_foot_error, (pose.p - anchor[f].p).norm());
      report.max_foot_rotation =
          std::max(report.max_foot_rotation, spatial::log3(anchor[f].R.transpose() * pose.R).norm());
      const LegAngles before = leg_angles(model, legs.leg[f], q.col(k));
      const LegIkResult ik = refit_leg(model, legs.leg[f], root, anchor[f], q.col(k));
      if (!ik.ok()) {
        throw InfeasibleError("the " + std::string(f == 0 ? "right" : "left") +
                              " leg cannot keep its support foot at t = " +
                              core::format_number(planned.times[static_cast<std::size_t>(k)]) +
                              " s: " + describe_failure(model, legs.leg[f], ik));
      }
      report.max_angle_change = std::max(report.max_angle_change, (ik.angles - before).cwiseAbs().maxCoeff());
    }
  }
  return report;
}

}  // namespace mimic::stability
