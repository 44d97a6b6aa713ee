#include "mimic/walking/walking_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "mimic/core/error.hpp"

namespace mimic::walking {

using model::ContactPhase;
using model::SoleRectangle;
using stability::ground_corners;

namespace {

// The four corners of a sole rectangle on the ground.
std::array<Vec2, 4> corners(const SoleRectangle& outline, const FootPlacement& placement) {
  return ground_corners(outline, placement.pose());
}

// Separating-axis test of two convex quadrilaterals: they overlap unless the projections on one of the
// edge normals are disjoint.
bool rectangles_overlap(const std::array<Vec2, 4>& a, const std::array<Vec2, 4>& b) {
  for (const auto* poly : {&a, &b}) {
    for (std::size_t i = 0; i < 4; ++i) {
      const Vec2 edge = (*poly)[(i + 1) % 4] - (*poly)[i];
      const Vec2 normal(-edge.y(), edge.x());
      double a_min = INFINITY, a_max = -INFINITY, b_min = INFINITY, b_max = -INFINITY;
      for (const Vec2& p : a) {
        a_min = std::min(a_min, normal.dot(p));
        a_max = std::max(a_max, normal.dot(p));
      }
      for (const Vec2& p : b) {
        b_min = std::min(b_min, normal.dot(p));
        b_max = std::max(b_max, normal.dot(p));
      }
      if (a_max <= b_min || b_max <= a_min) return false;
    }
  }
  return true;
}

double phase_fraction(const WalkPhase& phase, double t) {
  const double length = phase.end - phase.start;
  return length > 0.0 ? std::clamp((t - phase.start) / length, 0.0, 1.0) : 1.0;
}

}  // namespace

double minimum_jerk(double tau) {
  const double t = std::clamp(tau, 0.0, 1.0);
  return t * t * t * (10.0 + t * (-15.0 + 6.0 * t));
}

double swing_bump(double tau) {
  const double t = std::clamp(tau, 0.0, 1.0);
  const double u = t * (1.0 - t);
  return 64.0 * u * u * u;
}

double angle_difference(double a, double b) {
  const double two_pi = 2.0 * std::numbers::pi;
  double d = std::fmod(a - b + std::numbers::pi, two_pi);
  if (d < 0.0) d += two_pi;
  return d - std::numbers::pi;
}

Vec2 WalkSchedule::sole_centre(Foot foot, const FootPlacement& placement) const {
  const SoleRectangle& r = foot == Foot::kRight ? right_outline_ : left_outline_;
  return placement.to_world(Vec2(0.5 * (r.x_min + r.x_max), 0.5 * (r.y_min + r.y_max)));
}

WalkSchedule::WalkSchedule(const FootstepPlan& plan, const SoleRectangle& right_outline,
                           const SoleRectangle& left_outline)
    : right_outline_(right_outline), left_outline_(left_outline) {
  FootPlacement right = plan.initial_right, left = plan.initial_left;
  const auto middle = [&] {
    return 0.5 * (sole_centre(Foot::kRight, right) + sole_centre(Foot::kLeft, left));
  };
  const auto overlap = [&](const FootPlacement& r, const FootPlacement& l) {
    return rectangles_overlap(corners(right_outline_, r), corners(left_outline_, l));
  };
  if (overlap(right, left))
    throw InputError(input_error_message(plan.source, "initial_stance", "the right and left soles overlap"));

  double t = 0.0;
  Vec2 zmp = middle();
  const auto add = [&](WalkPhaseKind kind, double length, int step, ContactPhase contact,
                       const Vec2& zmp_end) {
    if (length <= 0.0) return;
    phases_.push_back({kind, t, t + length, step, contact, zmp, zmp_end, right, left});
    t += length;
    zmp = zmp_end;
  };

  add(WalkPhaseKind::kHold, plan.initial_hold, -1, ContactPhase::kDoubleSupport, zmp);
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    const Footstep& step = plan.steps[i];
    const int index = static_cast<int>(i);
    const Foot support = other_foot(step.foot);
    const Vec2 support_centre = sole_centre(support, support == Foot::kRight ? right : left);
    step_start_.push_back(t);
    add(WalkPhaseKind::kTransfer, step.timing.double_support, index, ContactPhase::kDoubleSupport,
        support_centre);
    add(WalkPhaseKind::kSwing, step.timing.single_support, index,
        support == Foot::kRight ? ContactPhase::kRightSupport : ContactPhase::kLeftSupport, support_centre);
    step_end_.push_back(t);
    step_height_.push_back(step.timing.step_height);
    step_waist_change_.push_back(step.waist_height_change);
    step_target_.push_back(step.target);

    (step.foot == Foot::kRight ? right : left) = step.target;
    if (overlap(right, left)) {
      throw InputError(input_error_message(
          plan.source,
          step.line > 0 ? "line " + std::to_string(step.line) : "steps[" + std::to_string(i) + "]",
          "steps[" + std::to_string(i) + "]: the " + to_string(step.foot) + " sole would land on the " +
              to_string(support) + " sole (their rectangles overlap)"));
    }
  }
  // The final waist change: one more entry of the per-step waist changes, over the final transfer and hold.
  step_start_.push_back(t);
  step_end_.push_back(t + std::max(0.0, plan.final_transfer) + std::max(0.0, plan.final_hold));
  step_waist_change_.push_back(plan.final_waist_height_change);
  add(WalkPhaseKind::kTransfer, plan.final_transfer, -1, ContactPhase::kDoubleSupport, middle());
  add(WalkPhaseKind::kHold, plan.final_hold, -1, ContactPhase::kDoubleSupport, zmp);
  if (phases_.empty()) {
    // A plan without any duration still has one instant: standing at the start.
    phases_.push_back(
        {WalkPhaseKind::kHold, 0.0, 0.0, -1, ContactPhase::kDoubleSupport, zmp, zmp, right, left});
  }
}

WalkState WalkSchedule::at(double t) const {
  t = std::clamp(t, 0.0, duration());
  // The last phase whose start is <= t (phases cover [start, end); the final instant belongs to the last).
  const auto it = std::upper_bound(phases_.begin(), phases_.end(), t,
                                   [](double time, const WalkPhase& p) { return time < p.start; });
  const WalkPhase& phase = *std::prev(it == phases_.begin() ? std::next(it) : it);
  const double tau = phase_fraction(phase, t);

  WalkState state;
  state.contact = phase.contact;
  state.zmp = phase.zmp_start + (phase.zmp_end - phase.zmp_start) * tau;

  FootPlacement right = phase.right, left = phase.left;
  double right_z = 0.0, left_z = 0.0;
  if (phase.kind == WalkPhaseKind::kSwing) {
    const std::size_t i = static_cast<std::size_t>(phase.step);
    const bool swing_right = phase.contact == ContactPhase::kLeftSupport;
    FootPlacement& foot = swing_right ? right : left;
    const FootPlacement& target = step_target_[i];
    const double s = minimum_jerk(tau);
    foot.position += s * (target.position - foot.position);
    foot.yaw += s * angle_difference(target.yaw, foot.yaw);
    (swing_right ? right_z : left_z) = step_height_[i] * swing_bump(tau);
  }
  state.right_sole = right.pose(right_z);
  state.left_sole = left.pose(left_z);
  state.waist_yaw = right.yaw + 0.5 * angle_difference(left.yaw, right.yaw);

  for (std::size_t i = 0; i < step_start_.size(); ++i) {
    const double length = step_end_[i] - step_start_[i];
    const double u = length > 0.0 ? (t - step_start_[i]) / length : (t >= step_end_[i] ? 1.0 : 0.0);
    state.waist_height_change += step_waist_change_[i] * minimum_jerk(u);
  }
  return state;
}

std::vector<model::ContactInterval> WalkSchedule::contact_intervals() const {
  std::vector<model::ContactInterval> intervals;
  for (const WalkPhase& p : phases_) {
    if (!intervals.empty() && intervals.back().phase == p.contact) {
      intervals.back().end = p.end;
    } else {
      intervals.push_back({p.start, p.end, p.contact});
    }
  }
  return intervals;
}

}  // namespace mimic::walking
