// Checks of a generated walking pattern, from its configurations alone (forward kinematics and the
// multibody ZMP), for the `mimic walk` summary and the tests: how far the multibody ZMP strays from the
// reference and how deep it stays in the support polygon, whether the feet in contact stay still and the
// swing foot lands on its footstep, and how close the joints come to their angle and velocity limits.
#pragma once

#include <string>

#include "mimic/evaluation/peak.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/walking/walking_pattern.hpp"
#include "mimic/walking/walking_schedule.hpp"

namespace mimic::walking {

struct WalkingSummary {
  double duration = 0.0;  // s
  int steps = 0;

  double max_zmp_deviation = 0.0;  // m, |multibody ZMP - reference| (horizontal)
  double max_zmp_deviation_time = 0.0;
  double min_zmp_margin = 0.0;  // m, signed distance of the multibody ZMP to the support polygon's edge
  double min_zmp_margin_time = 0.0;

  evaluation::Peak velocity;      // max over joints and samples of |v| / velocity limit (motion.v)
  double min_angle_margin = 0.0;  // rad, smallest distance of a joint to its nearer limit (< 0: beyond)
  std::string min_angle_margin_joint;

  double max_support_slip = 0.0;      // m, largest drift of a sole while it is in contact
  double max_support_rotation = 0.0;  // rad, its largest rotation while in contact
  double max_landing_error = 0.0;     // m, |sole - footstep| at touch-down
};

// The joint velocities are the motion's v (model::differentiate, the one finite difference of every stage:
// central inside, one-sided at the ends), so that the walk's peak is the one `mimic check` reports.
WalkingSummary summarize_walking_pattern(const model::Model& model,
                                         const model::RobotDescription& description,
                                         const WalkSchedule& schedule, const WalkingPattern& pattern);

}  // namespace mimic::walking
