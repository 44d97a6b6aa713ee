#include "mimic/walking/walking_evaluation.hpp"

#include <cmath>
#include <limits>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/spatial/explog.hpp"

namespace mimic::walking {

using model::ContactPhase;
using model::left_foot_in_contact;
using model::right_foot_in_contact;
using stability::SupportPolygon;

namespace {

using spatial::SE3;

// Largest drift of one foot over its runs of contact samples, measured from the first sample of each run.
struct SlipTracker {
  bool in_contact = false;
  SE3 anchor;
  double position = 0.0, rotation = 0.0;

  void update(bool contact, const SE3& sole) {
    if (!contact) {
      in_contact = false;
      return;
    }
    if (!in_contact) {
      in_contact = true;
      anchor = sole;
      return;
    }
    position = std::max(position, (sole.p - anchor.p).norm());
    rotation = std::max(rotation, spatial::log3(anchor.R.transpose() * sole.R).norm());
  }
};

}  // namespace

WalkingSummary summarize_walking_pattern(const model::Model& model,
                                         const model::RobotDescription& description,
                                         const WalkSchedule& schedule, const WalkingPattern& pattern) {
  WalkingSummary s;
  const Eigen::Index n = pattern.size();
  s.duration = pattern.motion.times.empty() ? 0.0 : pattern.motion.times.back();
  for (const WalkPhase& p : schedule.phases())
    if (p.kind == WalkPhaseKind::kSwing) ++s.steps;

  model::Data data(model);
  const int right_frame = model.frame_index(description.frames.right_sole);
  const int left_frame = model.frame_index(description.frames.left_sole);
  SlipTracker right_slip, left_slip;
  s.min_zmp_margin = std::numeric_limits<double>::infinity();
  s.min_angle_margin = std::numeric_limits<double>::infinity();
  for (Eigen::Index k = 0; k < n; ++k) {
    const double t = pattern.motion.times[static_cast<std::size_t>(k)];
    dynamics::forward_kinematics(model, data, pattern.motion.q.col(k));
    const SE3 right = dynamics::update_frame_placement(model, data, right_frame);
    const SE3 left = dynamics::update_frame_placement(model, data, left_frame);
    const ContactPhase phase = pattern.motion.phases[static_cast<std::size_t>(k)];
    right_slip.update(right_foot_in_contact(phase), right);
    left_slip.update(left_foot_in_contact(phase), left);

    const Vec2 zmp = pattern.zmp.row(k).head<2>().transpose();
    const double deviation = (zmp - pattern.zmp_reference.row(k).head<2>().transpose()).norm();
    if (!(deviation <= s.max_zmp_deviation)) {  // NaN (no support) counts as the worst
      s.max_zmp_deviation = deviation;
      s.max_zmp_deviation_time = t;
    }
    const SupportPolygon polygon =
        SupportPolygon::of_feet(phase, right, left, description.right_sole, description.left_sole);
    const double margin =
        zmp.allFinite() ? polygon.signed_distance(zmp) : -std::numeric_limits<double>::infinity();
    if (margin < s.min_zmp_margin) {
      s.min_zmp_margin = margin;
      s.min_zmp_margin_time = t;
    }

    for (int j = 0; j < model.nj; ++j) {
      const double angle = pattern.motion.q(model.idx_q(j), k);
      const double margin_j = std::min(angle - model.lower_limit[j], model.upper_limit[j] - angle);
      if (margin_j < s.min_angle_margin) {
        s.min_angle_margin = margin_j;
        s.min_angle_margin_joint = model.joint_names[static_cast<std::size_t>(j)];
      }
      const double velocity = pattern.motion.v(model.idx_v(j), k);
      s.velocity.raise(std::abs(velocity) / model.velocity_limit[j], velocity, model.velocity_limit[j],
                       model.joint_names[static_cast<std::size_t>(j)], t);
    }
  }
  s.max_support_slip = std::max(right_slip.position, left_slip.position);
  s.max_support_rotation = std::max(right_slip.rotation, left_slip.rotation);

  // Touch-downs: the sample at the end of each swing against the schedule's landing pose.
  const double dt = n > 1 ? pattern.motion.times[1] - pattern.motion.times[0] : 1.0;
  for (const WalkPhase& p : schedule.phases()) {
    if (p.kind != WalkPhaseKind::kSwing) continue;
    const Eigen::Index k = std::min<Eigen::Index>(n - 1, static_cast<Eigen::Index>(std::llround(p.end / dt)));
    dynamics::forward_kinematics(model, data, pattern.motion.q.col(k));
    const int frame = p.contact == ContactPhase::kLeftSupport ? right_frame : left_frame;
    const SE3& sole = dynamics::update_frame_placement(model, data, frame);
    const WalkState landed = schedule.at(p.end);
    const SE3& target = p.contact == ContactPhase::kLeftSupport ? landed.right_sole : landed.left_sole;
    s.max_landing_error = std::max(s.max_landing_error, (sole.p - target.p).norm());
  }
  return s;
}

}  // namespace mimic::walking
