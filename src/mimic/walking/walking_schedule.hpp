// The timeline of a footstep plan and everything it prescribes at one instant: which feet support the
// robot, where both soles are (the swing foot on its trajectory), the ZMP reference, and the waist height
// change and yaw.
//
// Phases, in order:
//   hold      both feet, ZMP at the middle of the two sole centres           (initial_hold)
//   per step  transfer: both feet, ZMP moving linearly to the support sole's centre  (double_support)
//             swing:    the other foot swings, ZMP at the support sole's centre       (single_support)
//   transfer  both feet, ZMP back to the middle of the two sole centres      (final_transfer)
//   hold      both feet, ZMP at the middle                                   (final_hold)
// (the piecewise reference of the walking examples of Kajita et al., ICRA 2003, which the preview control of
// preview_control.hpp tracks).
//
// The swing foot follows a minimum-jerk time scaling in x, y and yaw and a smooth bump in z, so its
// velocity and acceleration are zero at lift-off and at touch-down.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/model/contact_phase.hpp"
#include "mimic/spatial/se3.hpp"
#include "mimic/stability/support_polygon.hpp"
#include "mimic/walking/footsteps.hpp"

namespace mimic::walking {

using Vec2 = Eigen::Vector2d;  // a point or direction on the ground, as stability::Vec2

// Minimum-jerk time scaling s(tau) = 10 tau^3 - 15 tau^4 + 6 tau^5 (Flash and Hogan, J. Neurosci. 1985):
// s(0) = 0, s(1) = 1, and s', s'' vanish at both ends. tau is clamped to [0, 1].
double minimum_jerk(double tau);
// Swing-height bump b(tau) = 64 tau^3 (1 - tau)^3: b(0) = b(1) = 0, b(1/2) = 1, and b', b'' vanish at
// both ends. tau is clamped to [0, 1].
double swing_bump(double tau);
// Angle a - b wrapped to [-pi, pi).
double angle_difference(double a, double b);

enum class WalkPhaseKind : unsigned char { kHold, kTransfer, kSwing };

struct WalkPhase {
  WalkPhaseKind kind = WalkPhaseKind::kHold;
  double start = 0.0, end = 0.0;  // s
  int step = -1;  // the step a transfer or swing belongs to; -1 for the holds and final transfer
  model::ContactPhase contact = model::ContactPhase::kDoubleSupport;
  Vec2 zmp_start = Vec2::Zero(), zmp_end = Vec2::Zero();  // ZMP reference at start and end, world
  FootPlacement right, left;                              // the feet at the start of the phase
};

// What the plan prescribes at one instant.
struct WalkState {
  model::ContactPhase contact = model::ContactPhase::kDoubleSupport;
  spatial::SE3 right_sole, left_sole;  // world; the swing foot is in the air
  Vec2 zmp = Vec2::Zero();             // ZMP reference on the ground, world
  double waist_height_change = 0.0;    // m, relative to the initial waist height
  double waist_yaw = 0.0;              // rad, the mean of the two soles' yaws
};

class WalkSchedule {
 public:
  // Throws InputError naming the plan's file and the step's line when a step would put one sole on top
  // of the other (their rectangles overlap).
  WalkSchedule(const FootstepPlan& plan, const model::SoleRectangle& right_outline,
               const model::SoleRectangle& left_outline);

  double duration() const { return phases_.empty() ? 0.0 : phases_.back().end; }
  const std::vector<WalkPhase>& phases() const { return phases_; }

  // The state at time t, clamped to [0, duration()]. A phase covers [start, end): at a touch-down instant
  // the next transfer (both feet) has begun.
  WalkState at(double t) const;

  // The support phases as the job YAML's `contacts:` (consecutive phases with the same support merged).
  std::vector<model::ContactInterval> contact_intervals() const;

  // The centre of a sole's rectangle on the ground, world.
  Vec2 sole_centre(Foot foot, const FootPlacement& placement) const;

 private:
  std::vector<WalkPhase> phases_;
  std::vector<double> step_height_;  // per step, m
  // Per step, then the plan's final waist change: m, and the interval it is spread over (the step's
  // transfer and swing; the final transfer and hold).
  std::vector<double> step_waist_change_;
  std::vector<double> step_start_, step_end_;
  std::vector<FootPlacement> step_target_;
  model::SoleRectangle right_outline_, left_outline_;
};

}  // namespace mimic::walking
