// The robot's footstep plan from a clip's footsteps (pipeline/clip_footstep_plan): synthetic contacts
// whose plan is known exactly (a straight walk, a turn, a side step, a shuffle), the limits' clamps and
// their messages, catch-up steps, the stretch of a walk too fast for the robot, the refusal of a flight, a
// clip that stands; the limits of the shipped robots; and the walking clips of ../shared/mocap from their
// landmarks to plans that WalkSchedule accepts.
#include "mimic/pipeline/clip_footstep_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <numbers>
#include <utility>
#include <vector>

#include "mimic/core/error.hpp"
#include "mimic/mocap/load.hpp"
#include "mimic/model/robot.hpp"
#include "mimic/retarget/landmark_track.hpp"
#include "mimic/walking/walking_schedule.hpp"
#include "support/shared_data.hpp"

namespace mimic::pipeline {
namespace {

using Eigen::Vector2d;
using retarget::ClipContacts;
using retarget::ClipFoot;
using walking::Foot;
using walking::FootPlacement;

constexpr double kRate = 100.0;
// HRP-2's nominal stance (config/walk/bar_steps.yaml).
const FootPlacement kRight{Vector2d(0.00949, -0.095), 0.0};
const FootPlacement kLeft{Vector2d(0.00949, 0.095), 0.0};

double identity(double t) { return t; }

// HRP-2's limits with round numbers that the expectations below are computed with: reach 0.28 m along
// both ways, 0.1 m wider than the nominal stance, turn 0.4 rad (the durations, soles and gap are HRP-2's:
// 0.7 s swings, 0.1 s transfers, 0.03 m).
StepLimits test_limits() {
  StepLimits limits = hrp2_step_limits();
  limits.max_forward = limits.max_backward = 0.28;
  limits.max_lateral = 0.1;
  limits.max_turn = 0.4;
  return limits;
}

// Synthetic contacts: support phases added in any order, sorted by start on build().
class Clip {
 public:
  explicit Clip(double duration) : frame_count_(static_cast<int>(std::lround(duration * kRate)) + 1) {}
  // `step`: 1 or 0 forces the step flag; -1 leaves it to the distance from the foot's previous phase, as
  // detect_clip_contacts decides it (0.1 L, L = 0.9 m).
  Clip& phase(ClipFoot foot, double start, double end, Vector2d position, double heading = 0.0,
              int step = -1) {
    retarget::ClipFootstep s;
    s.foot = foot;
    s.interval = {static_cast<int>(std::lround(start * kRate)), static_cast<int>(std::lround(end * kRate)),
                  start, end};
    s.position = position;
    s.heading = heading;
    phases_.push_back({s, step});
    return *this;
  }
  ClipContacts build() {
    std::stable_sort(phases_.begin(), phases_.end(), [](const auto& a, const auto& b) {
      return a.first.interval.start < b.first.interval.start ||
             (a.first.interval.start == b.first.interval.start && a.first.foot == ClipFoot::kRight &&
              b.first.foot == ClipFoot::kLeft);
    });
    ClipContacts c;
    c.rate = kRate;
    c.frame_count = frame_count_;
    c.leg_length = 0.9;
    std::array<const retarget::ClipFootstep*, 2> previous{nullptr, nullptr};
    for (auto& [s, step] : phases_) {
      auto& p = previous[static_cast<std::size_t>(s.foot)];
      s.stride = p ? (s.position - p->position).norm() : 0.0;
      s.step = step >= 0 ? step == 1 : p && s.stride >= 0.09;
      p = &s;
    }
    for (const auto& phase : phases_) c.footsteps.push_back(phase.first);
    return c;
  }

 private:
  int frame_count_;
  std::vector<std::pair<retarget::ClipFootstep, int>> phases_;
};

// The straight walk: feet 0.2 m apart, four steps of 0.4 m relative to the support foot (the last one
// closes the stance), 0.8 s swings and 0.2 s transfers; the clip ends 1.2 s after the last touchdown.
ClipContacts straight_walk(double swing = 0.8, double transfer = 0.2) {
  Clip clip(6.0);
  const double cycle = swing + transfer;
  double t = 1.0;  // the first lift-off
  clip.phase(ClipFoot::kRight, 0.0, t, {0.0, -0.1});
  clip.phase(ClipFoot::kLeft, 0.0, t + cycle, {0.0, 0.1});
  clip.phase(ClipFoot::kRight, t + swing, t + 2 * cycle, {0.4, -0.1});
  clip.phase(ClipFoot::kLeft, t + cycle + swing, t + 3 * cycle, {0.8, 0.1});
  clip.phase(ClipFoot::kRight, t + 2 * cycle + swing, 6.0, {1.2, -0.1});
  clip.phase(ClipFoot::kLeft, t + 3 * cycle + swing, 6.0, {1.2, 0.1});
  return clip.build();
}

// WalkSchedule accepts the plan (no sole on the other) and lasts as long as the plan says.
void expect_schedule_accepts(const ClipFootstepPlan& p, const StepLimits& limits) {
  const walking::WalkSchedule schedule(p.plan, limits.right_sole, limits.left_sole);
  EXPECT_NEAR(schedule.duration(), p.plan.duration(), 1e-9);
}

TEST(ClipFootstepPlan, StraightWalkScalesTheStepsAndKeepsTheTiming) {
  const StepLimits limits = test_limits();
  const ClipFootstepPlan p = plan_clip_footsteps(straight_walk(), 0.5, identity, kRight, kLeft, limits);
  ASSERT_EQ(p.steps.size(), 4u);
  ASSERT_EQ(p.plan.steps.size(), 4u);
  EXPECT_EQ(p.time_stretch, 1.0);
  EXPECT_EQ(p.time_offset, 0.0);
  // The body's path scaled by 0.5 from the robot's stance; each foot at the robot's own 0.095 m offset.
  const double x[] = {0.2, 0.4, 0.6, 0.6};
  for (std::size_t k = 0; k < 4; ++k) {
    const walking::Footstep& s = p.plan.steps[k];
    EXPECT_EQ(s.foot, k % 2 == 0 ? Foot::kRight : Foot::kLeft);
    EXPECT_NEAR(s.target.position.x(), 0.00949 + x[k], 1e-12) << k;
    EXPECT_NEAR(s.target.position.y(), k % 2 == 0 ? -0.095 : 0.095, 1e-12) << k;
    EXPECT_NEAR(s.target.yaw, 0.0, 1e-12);
    EXPECT_TRUE(p.steps[k].adjustments.empty()) << p.steps[k].adjustments.front();
    EXPECT_NEAR((p.steps[k].scaled_human - s.target.position).norm(), 0.0, 1e-12);
    EXPECT_NEAR(s.timing.single_support, 0.8, 1e-12);
    EXPECT_NEAR(s.timing.double_support, 0.2, 1e-12);
    EXPECT_NEAR(s.timing.step_height, limits.step_height, 0.0);
    EXPECT_NEAR(p.steps[k].clip_time, 1.8 + static_cast<double>(k), 1e-12);
    EXPECT_NEAR(p.steps[k].robot_time, p.steps[k].clip_time, 1e-12);
    EXPECT_EQ(p.steps[k].clip_footstep, static_cast<int>(k) + 2);
  }
  // The first transfer ends at the first lift-off (t = 1 s); the final hold runs to the clip's end or
  // settles the CoM, whichever is longer.
  EXPECT_NEAR(p.plan.initial_hold, 0.8, 1e-12);
  EXPECT_NEAR(p.plan.final_transfer, 0.2, 1e-12);
  EXPECT_NEAR(p.plan.final_hold, std::max(limits.settle_time, 6.0 - 4.8 - 0.2), 1e-12);
  expect_schedule_accepts(p, limits);
}

// max_single_support: a swing longer than it (1.0 s against 0.8 s) lifts off later, the touchdowns keep
// the clip's times and the cycle's remainder is double support (0.2 + 0.2 s); the first transfer is the
// median one.
TEST(ClipFootstepPlan, LongSwingsWaitInDoubleSupport) {
  StepLimits limits = test_limits();
  limits.max_single_support = 0.8;
  const ClipFootstepPlan p =
      plan_clip_footsteps(straight_walk(1.0, 0.2), 0.5, identity, kRight, kLeft, limits);
  ASSERT_EQ(p.plan.steps.size(), 4u);
  EXPECT_EQ(p.time_stretch, 1.0);
  EXPECT_EQ(p.time_offset, 0.0);
  for (std::size_t k = 0; k < 4; ++k) {
    const walking::Footstep& s = p.plan.steps[k];
    EXPECT_NEAR(s.timing.single_support, 0.8, 1e-12) << k;
    EXPECT_NEAR(s.timing.double_support, 0.4, 1e-12) << k;
    EXPECT_NEAR(p.steps[k].robot_time, 2.0 + 1.2 * static_cast<double>(k), 1e-12) << k;
    ASSERT_EQ(p.steps[k].adjustments.size(), 1u) << k;
    EXPECT_EQ(p.steps[k].adjustments.front(),
              "lift-off delayed by 0.2 s: the swing lasts at most max_single_support 0.8 s");
  }
  EXPECT_NEAR(p.plan.initial_hold, 0.8, 1e-12);
  expect_schedule_accepts(p, limits);
}

// HRP-2's longest swing is twice its shortest; a description without the key gets that ratio.
TEST(ClipFootstepPlan, LongestSwingIsTwiceTheShortestOnHrp2) {
  const StepLimits limits = hrp2_step_limits();
  EXPECT_DOUBLE_EQ(limits.max_single_support, 2.0 * limits.min_single_support);
}

// waist_lowering: down over the first step, back up over the final transfer and hold (the last step may
// be a long one); none by default (hrp2_step_limits(); config/robots/hrp2.yaml gives HRP-2's).
TEST(ClipFootstepPlan, WaistLowering) {
  StepLimits limits = test_limits();
  EXPECT_EQ(limits.waist_lowering, 0.0);
  limits.waist_lowering = 0.03;
  const ClipFootstepPlan p = plan_clip_footsteps(straight_walk(), 0.5, identity, kRight, kLeft, limits);
  ASSERT_EQ(p.plan.steps.size(), 4u);
  EXPECT_EQ(p.plan.steps[0].waist_height_change, -0.03);
  EXPECT_EQ(p.plan.steps[1].waist_height_change, 0.0);
  EXPECT_EQ(p.plan.steps[3].waist_height_change, 0.0);
  EXPECT_EQ(p.plan.final_waist_height_change, 0.03);
  const walking::WalkSchedule schedule(p.plan, limits.right_sole, limits.left_sole);
  const double last_touchdown = schedule.duration() - p.plan.final_transfer - p.plan.final_hold;
  EXPECT_NEAR(schedule.at(last_touchdown).waist_height_change, -0.03, 1e-12);
  EXPECT_NEAR(schedule.at(schedule.duration()).waist_height_change, 0.0, 1e-12);
}

TEST(ClipFootstepPlan, RobotTimeMapsEveryEvent) {
  const StepLimits limits = test_limits();
  const ClipFootstepPlan p = plan_clip_footsteps(
      straight_walk(), 0.5, [](double t) { return 1.5 * t; }, kRight, kLeft, limits);
  EXPECT_EQ(p.time_stretch, 1.0);
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_NEAR(p.plan.steps[k].timing.single_support, 1.2, 1e-12);
    EXPECT_NEAR(p.steps[k].robot_time, 1.5 * p.steps[k].clip_time, 1e-12);
  }
  EXPECT_NEAR(p.plan.initial_hold, 1.5 - 0.3, 1e-12);
}

// Too fast for the robot: 0.3 s swings and 0.1 s transfers, 0.4 s per step where HRP-2 needs 0.7 + 0.1:
// everything is slowed by 2, then each lift-off moves so that the swing lasts 0.7 s.
TEST(ClipFootstepPlan, TooFastStepsStretchTheClip) {
  const StepLimits limits = test_limits();
  const ClipFootstepPlan p =
      plan_clip_footsteps(straight_walk(0.3, 0.1), 0.5, identity, kRight, kLeft, limits);
  EXPECT_NEAR(p.time_stretch, 2.0, 1e-12);
  for (std::size_t k = 0; k < 4; ++k) {
    const walking::StepTiming& t = p.plan.steps[k].timing;
    EXPECT_NEAR(t.single_support, 0.7, 1e-9) << k;
    EXPECT_GE(t.double_support, 0.1 - 1e-9) << k;
    EXPECT_NEAR(p.steps[k].robot_time, p.plan_time(p.steps[k].clip_time), 1e-12);
    ASSERT_FALSE(p.steps[k].adjustments.empty());
    EXPECT_EQ(p.steps[k].adjustments.front(),
              "lift-off advanced by 0.1 s: the swing lasts min_single_support 0.7 s")
        << p.steps[k].adjustments.front();
  }
  // The touchdowns keep the clip's rhythm, twice as slow: 0.8 s apart.
  for (std::size_t k = 1; k < 4; ++k)
    EXPECT_NEAR(p.steps[k].robot_time - p.steps[k - 1].robot_time, 0.8, 1e-12);
  // Slowed down only while the clip walks (its first lift-off at 1 s to its last touchdown): the stands
  // before and after keep their pace, and robot_time_at inverts plan_time.
  EXPECT_NEAR(p.stretch_start, 1.0, 1e-12);
  EXPECT_NEAR(p.stretch_end, p.steps.back().clip_time, 1e-12);
  EXPECT_NEAR(p.plan_time(0.5) - p.plan_time(0.0), 0.5, 1e-12);
  EXPECT_NEAR(p.plan_time(1.5) - p.plan_time(1.0), 1.0, 1e-12);
  EXPECT_NEAR(p.plan_time(p.stretch_end + 1.0) - p.plan_time(p.stretch_end), 1.0, 1e-12);
  for (const double t : {0.0, 0.5, 1.0, 1.7, 2.2, p.stretch_end, p.stretch_end + 1.0}) {
    EXPECT_NEAR(p.robot_time_at(p.plan_time(t)), t, 1e-12) << t;
  }
  expect_schedule_accepts(p, limits);
}

// An in-place turn to the left by `angle`: the left foot turns away from the right one, the right follows.
ClipContacts turn_in_place(double angle) {
  const auto at = [&](double y) { return Vector2d(-std::sin(angle) * y, std::cos(angle) * y); };
  return Clip(4.0)
      .phase(ClipFoot::kRight, 0.0, 1.8, {0.0, -0.1})
      .phase(ClipFoot::kLeft, 0.0, 0.8, {0.0, 0.1})
      .phase(ClipFoot::kLeft, 1.6, 4.0, at(0.1), angle, 1)
      .phase(ClipFoot::kRight, 2.6, 4.0, at(-0.1), angle, 1)
      .build();
}

TEST(ClipFootstepPlan, TurnWithinReachIsKept) {
  const StepLimits limits = test_limits();
  const ClipFootstepPlan p = plan_clip_footsteps(turn_in_place(0.3), 0.5, identity, kRight, kLeft, limits);
  ASSERT_EQ(p.plan.steps.size(), 2u);
  const Vector2d middle(0.00949, 0.0);
  for (std::size_t k = 0; k < 2; ++k) {
    const double y = k == 0 ? 0.095 : -0.095;
    EXPECT_NEAR(
        (p.plan.steps[k].target.position - (middle + Vector2d(-std::sin(0.3) * y, std::cos(0.3) * y))).norm(),
        0.0, 1e-12);
    EXPECT_NEAR(p.plan.steps[k].target.yaw, 0.3, 1e-12);
    EXPECT_TRUE(p.steps[k].adjustments.empty()) << p.steps[k].adjustments.front();
  }
  expect_schedule_accepts(p, limits);
}

TEST(ClipFootstepPlan, SharpTurnIsClampedWithItsReason) {
  const StepLimits limits = test_limits();
  const ClipFootstepPlan p = plan_clip_footsteps(turn_in_place(0.6), 0.5, identity, kRight, kLeft, limits);
  ASSERT_EQ(p.plan.steps.size(), 2u);
  EXPECT_NEAR(p.plan.steps[0].target.yaw, limits.max_turn, 1e-12);
  ASSERT_FALSE(p.steps[0].adjustments.empty());
  EXPECT_EQ(p.steps[0].adjustments.front(), "turn 0.6 rad beyond max_turn 0.4 rad: turned 0.4 rad");
  // The right foot catches up with the human's heading: 0.2 rad more than the left, within reach.
  EXPECT_NEAR(p.plan.steps[1].target.yaw, 0.6, 1e-12);
  EXPECT_NEAR(p.steps[1].scaled_human_yaw, 0.6, 1e-12);
  expect_schedule_accepts(p, limits);
}

// A side step to the left: the left foot 0.18 m out, the right foot follows; at scale 0.5 the body moves
// 0.09 m and each foot keeps the robot's stance width.
TEST(ClipFootstepPlan, SideStep) {
  const StepLimits limits = test_limits();
  const ClipContacts c = Clip(3.0)
                             .phase(ClipFoot::kRight, 0.0, 1.8, {0.0, -0.1})
                             .phase(ClipFoot::kLeft, 0.0, 0.5, {0.0, 0.1})
                             .phase(ClipFoot::kLeft, 1.3, 3.0, {0.0, 0.28})
                             .phase(ClipFoot::kRight, 2.6, 3.0, {0.0, 0.08})
                             .build();
  const ClipFootstepPlan p = plan_clip_footsteps(c, 0.5, identity, kRight, kLeft, limits);
  ASSERT_EQ(p.plan.steps.size(), 2u);
  EXPECT_NEAR((p.plan.steps[0].target.position - Vector2d(0.00949, 0.185)).norm(), 0.0, 1e-12);
  EXPECT_NEAR((p.plan.steps[1].target.position - Vector2d(0.00949, -0.005)).norm(), 0.0, 1e-12);
  EXPECT_TRUE(p.steps[0].adjustments.empty());
  EXPECT_TRUE(p.steps[1].adjustments.empty());
  // The first transfer lasts as the second (1.3 to 1.8 s): 0.5 s, the whole time before the first lift-off.
  EXPECT_NEAR(p.plan.steps[0].timing.double_support, 0.5, 1e-12);
  EXPECT_NEAR(p.plan.initial_hold, 0.0, 1e-12);
  EXPECT_EQ(p.time_offset, 0.0);
  expect_schedule_accepts(p, limits);

  // Wider than the robot's reach: narrowed to the nominal width + max_lateral, with the reason.
  const ClipContacts wide = Clip(3.0)
                                .phase(ClipFoot::kRight, 0.0, 1.8, {0.0, -0.1})
                                .phase(ClipFoot::kLeft, 0.0, 0.5, {0.0, 0.1})
                                .phase(ClipFoot::kLeft, 1.3, 3.0, {0.0, 0.6})
                                .build();
  const ClipFootstepPlan q = plan_clip_footsteps(wide, 0.5, identity, kRight, kLeft, limits);
  ASSERT_EQ(q.plan.steps.size(), 1u);
  EXPECT_NEAR(q.plan.steps[0].target.position.y(), -0.095 + 0.19 + limits.max_lateral, 1e-12);
  ASSERT_EQ(q.steps[0].adjustments.size(), 1u);
  EXPECT_EQ(
      q.steps[0].adjustments[0],
      "width 0.44 m > 0.29 m (nominal 0.19 m + 0.1 m of max_lateral 0.1 m at this step length): narrowed");
}

// A stride longer than the robot's reach is shortened with its reason; the next step aims at the human's
// path again, and when that is more than two reaches away, catch-up steps share the way evenly first.
TEST(ClipFootstepPlan, TooLongStrideIsClampedWithItsReason) {
  const StepLimits limits = test_limits();
  // At scale 1 the first step lands 0.4 m ahead of the support foot (reach 0.28: 1.43 reaches, one
  // clamped step, 0.12 m behind); the second 0.8 m ahead of the start, 0.52 m (1.86 reaches) ahead of the
  // robot's right foot: clamped too, 0.24 m behind; the third 1.2 m ahead of the start, 0.64 m (2.29
  // reaches) ahead of the left foot: a pair of catch-up steps, the three steps 0.64 / 3 m each.
  const ClipFootstepPlan p = plan_clip_footsteps(straight_walk(), 1.0, identity, kRight, kLeft, limits);
  ASSERT_EQ(p.plan.steps.size(), 6u);
  ASSERT_EQ(p.steps[0].adjustments.size(), 1u);
  EXPECT_EQ(p.steps[0].adjustments[0], "forward step 0.4 m > max_forward 0.28 m: shortened");
  EXPECT_NEAR(p.plan.steps[0].target.position.x(), 0.00949 + 0.28, 1e-12);
  EXPECT_NEAR(p.steps[0].scaled_human.x(), 0.00949 + 0.4, 1e-12);
  const double third = 0.64 / 3.0;
  const double x[] = {0.28, 0.56, 0.56 + third, 0.56 + 2.0 * third, 1.2, 1.2};
  const bool inserted[] = {false, false, true, true, false, false};
  const int clip_footstep[] = {2, 3, 4, 4, 4, 5};
  for (std::size_t k = 0; k < 6; ++k) {
    const walking::Footstep& s = p.plan.steps[k];
    EXPECT_NEAR(s.target.position.x(), 0.00949 + x[k], 1e-12) << k;
    EXPECT_NEAR(s.target.position.y(), s.foot == Foot::kRight ? -0.095 : 0.095, 1e-12) << k;
    EXPECT_EQ(p.steps[k].inserted, inserted[k]) << k;
    EXPECT_EQ(p.steps[k].clip_footstep, clip_footstep[k]) << k;
    EXPECT_GE(s.timing.single_support, limits.min_single_support - 1e-9) << k;
    EXPECT_GE(s.timing.double_support, limits.min_double_support - 1e-9) << k;
    if (k > 0) {
      EXPECT_NE(s.foot, p.plan.steps[k - 1].foot) << k;
    }
  }
  EXPECT_EQ(p.steps[1].adjustments[0], "forward step 0.52 m > max_forward 0.28 m: shortened");
  // The catch-up steps aim where they land (within reach); the clip's step lands on its target.
  for (std::size_t k = 2; k < 5; ++k) {
    EXPECT_NEAR((p.steps[k].scaled_human - p.plan.steps[k].target.position).norm(), 0.0, 1e-12) << k;
  }
  ASSERT_FALSE(p.steps[4].adjustments.empty());
  EXPECT_EQ(p.steps[4].adjustments[0],
            "the clip's step is 2.29 of the robot's reach away: 2 catch-up steps before it, the 3 evenly "
            "spaced");
  // Five steps after the clip's first where the clip has three cycles of 1 s: 5 x 0.8 s in 3 s.
  EXPECT_NEAR(p.time_stretch, 0.8 * 5 / 3, 1e-12);
  expect_schedule_accepts(p, limits);
}

// Catch-up steps share a turn evenly too: a stride of 0.64 m (2.29 reaches of 0.28 m) that turns the body
// by 0.9 rad (beyond max_turn 0.4 rad in one step) is three steps turning 0.3 rad each.
TEST(ClipFootstepPlan, CatchUpStepsShareTheTurn) {
  const StepLimits limits = test_limits();
  // At scale 0.5: the right foot 0.64 m ahead of the left one (1.28 m in the clip), turned by 0.9 rad.
  const ClipContacts c = Clip(5.0)
                             .phase(ClipFoot::kRight, 0.0, 1.0, {0.0, -0.1})
                             .phase(ClipFoot::kLeft, 0.0, 5.0, {0.0, 0.1})
                             .phase(ClipFoot::kRight, 1.8, 5.0, {1.28, -0.1}, 0.9)
                             .build();
  const ClipFootstepPlan p = plan_clip_footsteps(c, 0.5, identity, kRight, kLeft, limits);
  ASSERT_EQ(p.plan.steps.size(), 3u);
  EXPECT_TRUE(p.steps[0].inserted);
  EXPECT_TRUE(p.steps[1].inserted);
  EXPECT_FALSE(p.steps[2].inserted);
  EXPECT_EQ(p.plan.steps[0].foot, Foot::kRight);
  EXPECT_EQ(p.plan.steps[1].foot, Foot::kLeft);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_NEAR(p.plan.steps[k].target.yaw, 0.3 * static_cast<double>(k + 1), 1e-12) << k;
  }
  expect_schedule_accepts(p, limits);
}

// Two steps of the same foot in a row (a shuffle): the support foot stays; WalkSchedule accepts it.
TEST(ClipFootstepPlan, ShuffleOfOneFoot) {
  const StepLimits limits = test_limits();
  const ClipContacts c = Clip(5.0)
                             .phase(ClipFoot::kRight, 0.0, 1.0, {0.0, -0.1})
                             .phase(ClipFoot::kLeft, 0.0, 5.0, {0.0, 0.1})
                             .phase(ClipFoot::kRight, 1.8, 2.4, {0.2, -0.1})
                             .phase(ClipFoot::kRight, 3.2, 5.0, {0.4, -0.1})
                             .build();
  const ClipFootstepPlan p = plan_clip_footsteps(c, 0.5, identity, kRight, kLeft, limits);
  ASSERT_EQ(p.plan.steps.size(), 2u);
  EXPECT_EQ(p.plan.steps[0].foot, Foot::kRight);
  EXPECT_EQ(p.plan.steps[1].foot, Foot::kRight);
  EXPECT_NEAR(p.plan.steps[1].target.position.x(), 0.00949 + 0.2, 1e-12);
  EXPECT_NEAR(p.plan.steps[1].timing.double_support, 0.6, 1e-12);
  EXPECT_NEAR(p.plan.steps[1].timing.single_support, 0.8, 1e-12);
  expect_schedule_accepts(p, limits);
}

TEST(ClipFootstepPlan, FlightIsRefused) {
  ClipContacts c = straight_walk();
  c.flights.push_back({125, 140, 1.25, 1.4});
  try {
    plan_clip_footsteps(c, 0.5, identity, kRight, kLeft, hrp2_step_limits());
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "running and jumping are not supported (both feet off the floor at t = 1.25 s)");
  }
}

TEST(ClipFootstepPlan, StandingClipIsOneHold) {
  const StepLimits limits = test_limits();
  const ClipContacts c = Clip(3.0)
                             .phase(ClipFoot::kRight, 0.0, 3.0, {0.0, -0.1})
                             .phase(ClipFoot::kLeft, 0.0, 1.0, {0.0, 0.1})
                             .phase(ClipFoot::kLeft, 1.5, 3.0, {0.02, 0.1})  // a heel lifted in place
                             .build();
  const ClipFootstepPlan p = plan_clip_footsteps(c, 0.5, identity, kRight, kLeft, limits);
  EXPECT_TRUE(p.plan.steps.empty());
  EXPECT_TRUE(p.steps.empty());
  EXPECT_NEAR(p.plan.initial_hold, 3.0, 1e-12);
  EXPECT_EQ(p.plan.final_transfer, 0.0);
  EXPECT_EQ(p.plan.final_hold, 0.0);
  EXPECT_EQ(p.time_stretch, 1.0);
  expect_schedule_accepts(p, limits);

  // A foot that never touches the floor has no stance to start from.
  const ClipContacts one_foot = Clip(1.0).phase(ClipFoot::kRight, 0.0, 1.0, {0.0, -0.1}).build();
  EXPECT_THROW(plan_clip_footsteps(one_foot, 0.5, identity, kRight, kLeft, limits), InputError);
}

// The shipped HRP-2 description gives HRP-2's reference limits; without its walking section the
// defaults scale the reference by HRP-2's own leg, so nothing changes: the reference leg length is HRP-2's.
TEST(StepLimits, Hrp2) {
  const model::Robot loaded = model::load_robot(model::default_robot_description_path());
  model::RobotDescription description = loaded.description;
  const model::Model& robot = loaded.model;
  const StepLimits reference = hrp2_step_limits();
  for (const bool with_section : {true, false}) {
    if (!with_section) description.walking = {};
    const StepLimits l = step_limits(description, robot);
    EXPECT_NEAR(l.leg_length, reference.leg_length, 1e-9);
    EXPECT_NEAR(l.thigh_shank, reference.thigh_shank, 1e-9);
    EXPECT_NEAR(l.max_forward, reference.max_forward, 1e-9);
    EXPECT_NEAR(l.max_backward, reference.max_backward, 1e-9);
    EXPECT_NEAR(l.max_lateral, reference.max_lateral, 1e-9);
    EXPECT_NEAR(l.min_width, reference.min_width, 1e-9);
    EXPECT_NEAR(l.max_turn, reference.max_turn, 1e-9);
    EXPECT_NEAR(l.min_single_support, reference.min_single_support, 1e-9);
    EXPECT_NEAR(l.min_double_support, reference.min_double_support, 1e-9);
    EXPECT_NEAR(l.step_height, reference.step_height, 1e-9);
    // Tc from the model's CoM height in half-sitting (hrp2.md: 0.8078 m above the soles).
    EXPECT_NEAR(l.settle_time, reference.settle_time, 0.02);
  }
  const auto stance = nominal_stance(description, robot);
  EXPECT_NEAR((stance[0].position - kRight.position).norm(), 0.0, 1e-5);
  EXPECT_NEAR((stance[1].position - kLeft.position).norm(), 0.0, 1e-5);
  EXPECT_NEAR(stance[0].yaw, 0.0, 1e-12);
}

// JVRC-1 and G1: their descriptions' walking sections, and what the defaults would give (printed: the
// sections' comments quote them).
TEST(StepLimits, SharedRobots) {
  MIMIC_REQUIRE_SHARED(robots, "robots");
  for (const char* name : {"jvrc1", "g1"}) {
    const model::Robot loaded = model::load_robot(
        (test::source_dir() / "config" / "robots" / (std::string(name) + ".yaml")).string());
    model::RobotDescription bare = loaded.description;
    bare.walking = {};
    const StepLimits d = step_limits(bare, loaded.model);
    std::cout << name << ": leg " << d.leg_length << " m; defaults: forward " << d.max_forward
              << ", backward " << d.max_backward << ", lateral " << d.max_lateral << ", single support "
              << d.min_single_support << " s, double support " << d.min_double_support << " s, step height "
              << d.step_height << " m, settle " << d.settle_time << " s\n";
    const StepLimits l = step_limits(loaded.description, loaded.model);
    EXPECT_GT(l.leg_length, 0.5);
    EXPECT_LT(l.leg_length, 1.0);
    if (loaded.description.walking.max_forward) {
      EXPECT_EQ(l.max_forward, *loaded.description.walking.max_forward);
    }
    // The nominal stance stands the soles apart: the initial stance of a plan is valid.
    const auto stance = nominal_stance(loaded.description, loaded.model);
    walking::FootstepPlan plan;
    plan.initial_right = stance[0];
    plan.initial_left = stance[1];
    EXPECT_NO_THROW(walking::WalkSchedule(plan, l.right_sole, l.left_sole));
  }
}

// Algorithm 1's re-timing as robot_time: sample i of the clip at times[i], linear in between.
TEST(ClipFootstepPlan, RetimedClipTime) {
  retarget::RetimedSamples r;
  r.source_rate = 10.0;
  r.interval_steps = {1, 3, 1};
  r.times = {0.0, 0.1, 0.4, 0.5};
  EXPECT_EQ(retimed_clip_time(r, 0.0), 0.0);
  EXPECT_NEAR(retimed_clip_time(r, 0.05), 0.05, 1e-15);
  EXPECT_NEAR(retimed_clip_time(r, 0.15), 0.25, 1e-15);
  EXPECT_NEAR(retimed_clip_time(r, 0.3), 0.5, 1e-15);
  EXPECT_NEAR(retimed_clip_time(r, 0.4), 0.6, 1e-15);  // beyond the last sample: at the source rate
  const ClipFootstepPlan p = plan_clip_footsteps(
      straight_walk(), 0.5, [&](double t) { return retimed_clip_time(r, t); }, kRight, kLeft,
      hrp2_step_limits());
  EXPECT_EQ(p.plan.steps.size(), 4u);
}

// 131_01 on JVRC-1 and G1 (their URDFs in ../shared/robots): the plan WalkSchedule accepts with each
// robot's soles and limits, every clip step, and the feet's travel within 25 % of the scaled pelvis's.
TEST(ClipFootstepPlan, Cmu131_01OnJvrc1AndG1) {
  MIMIC_REQUIRE_SHARED(robots, "robots");
  MIMIC_REQUIRE_SHARED(path, "mocap/bvh/bvh11__cmu_131_01.bvh");
  const ClipContacts c = retarget::detect_clip_contacts(retarget::extract_landmarks(mocap::load_clip(path)));
  for (const char* name : {"jvrc1", "g1"}) {
    const model::Robot loaded = model::load_robot(
        (test::source_dir() / "config" / "robots" / (std::string(name) + ".yaml")).string());
    const StepLimits limits = step_limits(loaded.description, loaded.model);
    const auto stance = nominal_stance(loaded.description, loaded.model);
    const double scale = footstep_scale(limits, c.leg_length);
    const ClipFootstepPlan p = plan_clip_footsteps(c, scale, identity, stance[0], stance[1], limits);
    int clip_steps = 0;
    for (const auto& step : p.steps) clip_steps += step.inserted ? 0 : 1;
    EXPECT_EQ(clip_steps, c.step_count()) << name;
    expect_schedule_accepts(p, limits);
    std::array<FootPlacement, 2> feet = stance;
    for (const walking::Footstep& s : p.plan.steps) feet[s.foot == Foot::kRight ? 0 : 1] = s.target;
    const double travel =
        (0.5 * (feet[0].position + feet[1].position) - 0.5 * (stance[0].position + stance[1].position))
            .norm();
    std::cout << name << ": scale " << scale << ", " << p.plan.steps.size() << " plan steps, stretch "
              << p.time_stretch << ", scaled travel " << p.scaled_travel << " m, feet travel " << travel
              << " m\n";
    EXPECT_NEAR(travel, p.scaled_travel, 0.25 * p.scaled_travel) << name;
  }
}

// The walking clips of ../shared/mocap (those of tests/retarget/clip_contacts.cpp that travel and have no
// flight) from their landmarks to HRP-2's plan: every detected step is in the plan once, in order, after
// its catch-up steps; WalkSchedule accepts it (no sole on the other); and the feet travel as far as the
// scaled pelvis (within 25 %, the bound on the robot's waist travel). The numbers are printed.
class SharedClipPlan : public ::testing::TestWithParam<const char*> {};

TEST_P(SharedClipPlan, TakesEveryStepAndTravelsAsFar) {
  MIMIC_REQUIRE_SHARED(path, std::string("mocap/") + GetParam());
  const ClipContacts c = retarget::detect_clip_contacts(retarget::extract_landmarks(mocap::load_clip(path)));
  const model::Robot loaded = model::load_robot(model::default_robot_description_path());
  const StepLimits limits = step_limits(loaded.description, loaded.model);
  const auto stance = nominal_stance(loaded.description, loaded.model);
  // The robot's thigh and shank over the human's.
  const double scale = footstep_scale(limits, c.leg_length);
  const ClipFootstepPlan p = plan_clip_footsteps(c, scale, identity, stance[0], stance[1], limits);

  int clip_steps = 0, previous = -1, adjusted = 0;
  for (const auto& step : p.steps) {
    EXPECT_TRUE(c.footsteps[static_cast<std::size_t>(step.clip_footstep)].step);
    EXPECT_GE(step.clip_footstep, previous);
    previous = step.clip_footstep;
    clip_steps += step.inserted ? 0 : 1;
    adjusted += !step.inserted && !step.adjustments.empty() ? 1 : 0;
  }
  EXPECT_EQ(clip_steps, c.step_count());
  expect_schedule_accepts(p, limits);

  std::array<FootPlacement, 2> feet = stance;
  for (const walking::Footstep& s : p.plan.steps) feet[s.foot == Foot::kRight ? 0 : 1] = s.target;
  const double travel =
      (0.5 * (feet[0].position + feet[1].position) - 0.5 * (stance[0].position + stance[1].position)).norm();
  std::cout << GetParam() << " on HRP-2: scale " << scale << ", " << c.step_count() << " clip steps ("
            << adjusted << " adjusted) + " << p.plan.steps.size() - static_cast<std::size_t>(clip_steps)
            << " catch-up, stretch " << p.time_stretch << ", offset " << p.time_offset << " s, human travel "
            << p.human_travel << " m, scaled " << p.scaled_travel << " m, feet travel " << travel
            << " m, plan " << p.plan.duration() << " s for a " << (c.frame_count - 1) / c.rate << " s clip\n";
  EXPECT_NEAR(travel, p.scaled_travel, 0.25 * p.scaled_travel);
}

INSTANTIATE_TEST_SUITE_P(Clips, SharedClipPlan,
                         ::testing::Values("bvh/bvh11__cmu_131_01.bvh", "bvh/bvh11__cmu_scaled_131_01.bvh",
                                           "c3d/c3dorg-s34__xsens_AlbertoINT.c3d", "c3d/ezc3d__Qualisys.c3d",
                                           "c3d/btkdata__optitrack_mocap36.c3d"));

}  // namespace
}  // namespace mimic::pipeline
