#include "mimic/pipeline/clip_footstep_plan.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/walking/walking_schedule.hpp"

namespace mimic::pipeline {
namespace {

using core::format_number;
using Eigen::Vector2d;
using walking::angle_difference;
using walking::Foot;
using walking::FootPlacement;

std::size_t index_of(Foot foot) { return foot == Foot::kRight ? 0 : 1; }
Foot robot_foot(retarget::ClipFoot foot) {
  return foot == retarget::ClipFoot::kRight ? Foot::kRight : Foot::kLeft;
}
Vector2d rotate(double angle, const Vector2d& v) { return Eigen::Rotation2Dd(angle) * v; }
// A number for a message, rounded to the millimetre (or millisecond, milliradian).
std::string milli(double x) { return format_number(std::round(x * 1e3) / 1e3); }

// A stance: the midpoint of two feet, their mean heading, and each foot's offset from the midpoint (in the
// stance's axes) and heading relative to it.
struct Stance {
  Vector2d middle = Vector2d::Zero();
  double heading = 0.0;
  std::array<Vector2d, 2> offset{Vector2d::Zero(), Vector2d::Zero()};
  std::array<double, 2> toe{0.0, 0.0};

  Stance(const Vector2d& right, double right_heading, const Vector2d& left, double left_heading)
      : middle(0.5 * (right + left)),
        heading(right_heading + 0.5 * angle_difference(left_heading, right_heading)) {
    offset = {rotate(-heading, right - middle), rotate(-heading, left - middle)};
    toe = {angle_difference(right_heading, heading), angle_difference(left_heading, heading)};
  }

  // Where `foot` stands beside the body pose that the other foot's placement `other` implies.
  FootPlacement beside(Foot foot, const FootPlacement& other) const {
    const std::size_t f = index_of(foot), o = index_of(walking::other_foot(foot));
    const double body_heading = other.yaw - toe[o];
    const Vector2d body = other.position - rotate(body_heading, offset[o]);
    return {body + rotate(body_heading, offset[f]), body_heading + toe[f]};
  }
};

// The robot's placement of the human footstep (see the header's "Frames"): the body pose the footstep
// implies, in the human's stance frame, scaled into the robot's, then the robot's foot beside it.
FootPlacement scaled_target(const Stance& human, const Stance& robot, double scale, Foot foot,
                            const Vector2d& position, double heading) {
  const std::size_t f = index_of(foot);
  const double body_heading = heading - human.toe[f];
  const Vector2d body = position - rotate(body_heading, human.offset[f]);
  const Vector2d local = rotate(-human.heading, body - human.middle);
  const double robot_heading = robot.heading + angle_difference(body_heading, human.heading);
  FootPlacement target;
  target.position =
      robot.middle + rotate(robot.heading, scale * local) + rotate(robot_heading, robot.offset[f]);
  target.yaw = robot_heading + robot.toe[f];
  return target;
}

const model::SoleRectangle& sole(const StepLimits& limits, Foot foot) {
  return foot == Foot::kRight ? limits.right_sole : limits.left_sole;
}

// The moving foot's placement relative to the support foot's sole frame, clamped to the limits; appends a
// line to `adjustments` per clamp. `nominal` is the moving foot's placement relative to the support foot
// in the initial stance.
FootPlacement clamp_step(const FootPlacement& wanted, Foot foot, const FootPlacement& nominal,
                         const StepLimits& limits, std::vector<std::string>& adjustments) {
  FootPlacement rel = wanted;
  const double turn = angle_difference(wanted.yaw, nominal.yaw);
  if (std::abs(turn) > limits.max_turn) {
    const double clamped = std::copysign(limits.max_turn, turn);
    adjustments.push_back("turn " + milli(turn) + " rad beyond max_turn " + milli(limits.max_turn) +
                          " rad: turned " + milli(clamped) + " rad");
    rel.yaw = nominal.yaw + clamped;
  }
  if (rel.position.x() > limits.max_forward) {
    adjustments.push_back("forward step " + milli(rel.position.x()) + " m > max_forward " +
                          milli(limits.max_forward) + " m: shortened");
    rel.position.x() = limits.max_forward;
  } else if (rel.position.x() < -limits.max_backward) {
    adjustments.push_back("backward step " + milli(-rel.position.x()) + " m > max_backward " +
                          milli(limits.max_backward) + " m: shortened");
    rel.position.x() = -limits.max_backward;
  }
  // Across: `side` points from the support foot to the moving foot's side; distances are side * y.
  const double side = foot == Foot::kLeft ? 1.0 : -1.0;
  const model::SoleRectangle& support = sole(limits, walking::other_foot(foot));
  const model::SoleRectangle& moving = sole(limits, foot);
  const double inner_edge = side > 0 ? support.y_max : -support.y_min;
  double nearest_corner = INFINITY;  // of the moving sole, towards the support foot, from its origin
  for (const double x : {moving.x_min, moving.x_max})
    for (const double y : {moving.y_min, moving.y_max})
      nearest_corner = std::min(nearest_corner, side * rotate(rel.yaw, Vector2d(x, y)).y());
  const double narrowest = inner_edge + limits.min_width - nearest_corner;
  // The extra width shrinks as the step gets longer (a diamond in x and extra width): a leg reaches a
  // long step or a wide one, not both at once (jrl-walkgen's hull narrows likewise towards +-0.28 m).
  const double reach_along = rel.position.x() >= 0.0 ? rel.position.x() / limits.max_forward
                                                     : -rel.position.x() / limits.max_backward;
  const double extra = limits.max_lateral * std::max(0.0, 1.0 - reach_along);
  const double widest = std::max(narrowest, side * nominal.position.y() + extra);
  const double width = side * rel.position.y();
  if (width < narrowest) {
    adjustments.push_back("width " + milli(width) + " m < " + milli(narrowest) +
                          " m: widened (the soles would come closer than min_width " +
                          milli(limits.min_width) + " m)");
    rel.position.y() = side * narrowest;
  } else if (width > widest) {
    adjustments.push_back("width " + milli(width) + " m > " + milli(widest) + " m (nominal " +
                          milli(side * nominal.position.y()) + " m + " + milli(extra) + " m of max_lateral " +
                          milli(limits.max_lateral) + " m at this step length): narrowed");
    rel.position.y() = side * widest;
  }
  return rel;
}

FootPlacement relative_to(const FootPlacement& frame, const FootPlacement& p) {
  return {rotate(-frame.yaw, p.position - frame.position), angle_difference(p.yaw, frame.yaw)};
}
FootPlacement in_world(const FootPlacement& frame, const FootPlacement& rel) {
  return {frame.to_world(rel.position), frame.yaw + rel.yaw};
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// A plan step's events on the robot's clock before the stretch: the clip's, or for a step inserted to
// catch up, set back from the lift-off of the clip's step that follows it.
struct StepEvents {
  double lift_off = 0.0, touchdown = 0.0;
  bool inserted = false;
};

// A clip step whose foot lands further than this fraction of max_forward beyond where the robot can put
// it (along the support foot) gets catch-up steps; within it, the next steps' targets (which aim at the
// human's path, not at the robot's last foot) take up the rest. A pair gains up to 2 max_forward; the
// pairs stop when one would gain less than kCatchUpProgress max_forward (the target is across or turned
// beyond reach) or after kMaxCatchUpPairs (G1's 0.1 m steps after a human's 0.8 m stride need 4).
constexpr double kCatchUpFraction = 0.5;
constexpr double kCatchUpProgress = 0.1;
constexpr int kMaxCatchUpPairs = 8;

}  // namespace

ClipFootstepPlan plan_clip_footsteps(const retarget::ClipContacts& contacts, double scale,
                                     const std::function<double(double)>& robot_time,
                                     const FootPlacement& initial_right, const FootPlacement& initial_left,
                                     const StepLimits& limits) {
  if (!(scale > 0.0) || !std::isfinite(scale))
    throw std::invalid_argument("plan_clip_footsteps: the scale must be > 0, found " + format_number(scale));
  if (!contacts.flights.empty())
    throw InputError("running and jumping are not supported (both feet off the floor at t = " +
                     milli(contacts.flights.front().start) + " s)");

  const auto& footsteps = contacts.footsteps;
  std::array<int, 2> first{-1, -1};
  for (std::size_t i = 0; i < footsteps.size(); ++i) {
    int& f = first[index_of(robot_foot(footsteps[i].foot))];
    if (f < 0) f = static_cast<int>(i);
  }
  for (const Foot foot : {Foot::kRight, Foot::kLeft})
    if (first[index_of(foot)] < 0)
      throw InputError(std::string("the ") + walking::to_string(foot) +
                       " foot never touches the floor in the clip (no support phase)");

  const retarget::ClipFootstep& human_right = footsteps[static_cast<std::size_t>(first[0])];
  const retarget::ClipFootstep& human_left = footsteps[static_cast<std::size_t>(first[1])];
  const Stance human_stance(human_right.position, human_right.heading, human_left.position,
                            human_left.heading);
  const Stance robot(initial_right.position, initial_right.yaw, initial_left.position, initial_left.yaw);
  // Each foot's placement relative to the other's sole frame in the initial stance (index: moving foot).
  const std::array<FootPlacement, 2> nominal{relative_to(initial_left, initial_right),
                                             relative_to(initial_right, initial_left)};

  ClipFootstepPlan result;
  result.human_travel = contacts.displacement;
  result.scaled_travel = scale * contacts.displacement;
  walking::FootstepPlan& plan = result.plan;
  plan.source = "the clip's footsteps";
  plan.initial_right = initial_right;
  plan.initial_left = initial_left;

  // Placements, and the events of each step on the robot's clock.
  std::array<FootPlacement, 2> current{initial_right, initial_left};
  std::array<double, 2> support_end{0.0, 0.0};  // clip time each foot's latest support phase ended
  std::vector<StepEvents> events;
  for (std::size_t i = 0; i < footsteps.size(); ++i) {
    const retarget::ClipFootstep& human = footsteps[i];
    const Foot foot = robot_foot(human.foot);
    const std::size_t f = index_of(foot);
    const double lift_off = support_end[f];
    support_end[f] = human.interval.end;
    if (!human.step) continue;

    const FootPlacement target =
        scaled_target(human_stance, robot, scale, foot, human.position, human.heading);
    const Foot other = walking::other_foot(foot);
    const auto add = [&](Foot moving, const FootPlacement& aim, const FootPlacement& placed,
                         std::vector<std::string> adjustments, bool inserted) {
      ClipFootstepPlan::Step step;
      step.clip_footstep = static_cast<int>(i);
      step.foot = moving;
      step.scaled_human = aim.position;
      step.scaled_human_yaw = aim.yaw;
      step.clip_time = human.interval.start;
      step.inserted = inserted;
      step.adjustments = std::move(adjustments);
      result.steps.push_back(std::move(step));
      walking::Footstep footstep;
      footstep.foot = moving;
      footstep.target = placed;
      footstep.timing.step_height = limits.step_height;
      plan.steps.push_back(footstep);
      current[index_of(moving)] = placed;
      events.push_back({0.0, 0.0, inserted});
    };
    // The foot `moving` as far as it can go towards `aim` from the support foot's placement `support`,
    // with the clamps' messages; and how far short of the target along the support foot that leaves it
    // (the distance a walk loses: a side lunge, a crossed foot or a turn beyond reach gets no catch-up,
    // the robot steps as far as it can and the next steps aim at the human's path again).
    const auto reach = [&](const FootPlacement& support, Foot moving, const FootPlacement& aim,
                           std::vector<std::string>& adjustments) {
      return in_world(support, clamp_step(relative_to(support, aim), moving, nominal[index_of(moving)],
                                          limits, adjustments));
    };
    const auto short_along = [&](const FootPlacement& support, const FootPlacement& placed) {
      return std::abs(relative_to(support, target).position.x() - relative_to(support, placed).position.x());
    };
    std::vector<std::string> adjustments;
    FootPlacement placed = reach(current[index_of(other)], foot, target, adjustments);
    // Beyond reach: pairs of catch-up steps, the foot as far as it can towards its target, then the other
    // foot towards its place beside the target, while a pair brings the clip's step closer to reach.
    int pairs = 0;
    const double shortfall = short_along(current[index_of(other)], placed);
    for (double remaining = shortfall;
         remaining > kCatchUpFraction * limits.max_forward && pairs < kMaxCatchUpPairs; ++pairs) {
      std::vector<std::string> ignored, next_adjustments;
      const FootPlacement other_placed = reach(placed, other, robot.beside(other, target), ignored);
      const FootPlacement next = reach(other_placed, foot, target, next_adjustments);
      const double next_remaining = short_along(other_placed, next);
      if (remaining - next_remaining < kCatchUpProgress * limits.max_forward) break;
      add(foot, target, placed, {"inserted: a catch-up step towards the clip's step"}, true);
      add(other, robot.beside(other, target), other_placed,
          {"inserted: a catch-up step towards the clip's step"}, true);
      placed = next;
      adjustments = std::move(next_adjustments);
      remaining = next_remaining;
    }
    if (pairs > 0)
      adjustments.insert(adjustments.begin(), "the clip's step lands " + milli(shortfall) +
                                                  " m beyond the robot's reach along: " +
                                                  std::to_string(2 * pairs) + " catch-up steps before it");
    add(foot, target, placed, std::move(adjustments), false);
    events.back() = {robot_time(lift_off), robot_time(human.interval.start), false};
  }

  const double clip_end = contacts.frame_count > 1 ? (contacts.frame_count - 1) / contacts.rate : 0.0;
  const double robot_end = robot_time(clip_end);
  if (events.empty()) {
    plan.initial_hold = std::max(robot_end, 0.0);
    plan.final_transfer = 0.0;
    plan.final_hold = 0.0;
    return result;
  }

  // The stretch: the robot's average pace. Every step cycle (previous touchdown to touchdown) after the
  // clip's first step must hold a transfer and a swing; the clip's cycles together must hold them all.
  const double cycle_minimum = limits.min_double_support + limits.min_single_support;
  const auto first_clip_step = static_cast<std::size_t>(
      std::find_if(events.begin(), events.end(), [](const StepEvents& e) { return !e.inserted; }) -
      events.begin());
  const double clip_cycles = events.back().touchdown - events[first_clip_step].touchdown;
  const double later_steps = static_cast<double>(events.size() - 1 - first_clip_step);
  const double stretch = clip_cycles > 0.0 ? std::max(1.0, cycle_minimum * later_steps / clip_cycles) : 1.0;
  result.time_stretch = stretch;

  // The wanted events on the plan's clock (before the offset): the clip's, stretched; a catch-up step
  // one cycle before the next step's lift-off (the last one) or touchdown.
  std::vector<double> wanted_lift_off(events.size()), wanted_touchdown(events.size());
  for (std::size_t k = events.size(); k-- > 0;) {
    if (events[k].inserted) {
      wanted_touchdown[k] = wanted_lift_off[k + 1] - limits.min_double_support;
      wanted_lift_off[k] = wanted_touchdown[k] - limits.min_single_support;
    } else {
      wanted_lift_off[k] = stretch * events[k].lift_off;
      wanted_touchdown[k] = stretch * events[k].touchdown;
    }
  }

  // The events, one step after the other: a lift-off no earlier than the previous touchdown +
  // min_double_support, no later than its touchdown - min_single_support; when the cycle is too short for
  // both, the touchdown waits (the clip steps faster here than the robot can; a later, slower cycle
  // absorbs the delay). Moves of a catch-up step are not reported: its times are the plan's own.
  std::vector<double> lift_off(events.size()), touchdown(events.size());
  for (std::size_t k = 0; k < events.size(); ++k) {
    const double earliest = k == 0 ? -INFINITY : touchdown[k - 1] + limits.min_double_support;
    const double latest = wanted_touchdown[k] - limits.min_single_support;
    lift_off[k] = earliest <= latest ? std::clamp(wanted_lift_off[k], earliest, latest) : earliest;
    touchdown[k] = std::max(wanted_touchdown[k], lift_off[k] + limits.min_single_support);
    if (events[k].inserted) continue;
    std::vector<std::string>& adjustments = result.steps[k].adjustments;
    if (lift_off[k] > wanted_lift_off[k] + 1e-9)
      adjustments.push_back("lift-off delayed by " + milli(lift_off[k] - wanted_lift_off[k]) +
                            " s: the transfer lasts min_double_support " + milli(limits.min_double_support) +
                            " s");
    if (lift_off[k] < wanted_lift_off[k] - 1e-9)
      adjustments.push_back("lift-off advanced by " + milli(wanted_lift_off[k] - lift_off[k]) +
                            " s: the swing lasts min_single_support " + milli(limits.min_single_support) +
                            " s");
    if (touchdown[k] > wanted_touchdown[k] + 1e-9)
      adjustments.push_back("touchdown delayed by " + milli(touchdown[k] - wanted_touchdown[k]) +
                            " s: the clip steps faster here than the robot can");
  }

  std::vector<double> transfers;
  for (std::size_t k = 1; k < events.size(); ++k) transfers.push_back(lift_off[k] - touchdown[k - 1]);
  const double transfer = std::max(limits.min_double_support, transfers.empty() ? 0.0 : median(transfers));
  // The first transfer must end at the first lift-off: delay the clip when it lifts off too early.
  result.time_offset = std::max(0.0, transfer - lift_off.front());
  plan.initial_hold = result.time_offset + lift_off.front() - transfer;
  for (std::size_t k = 0; k < events.size(); ++k) {
    walking::StepTiming& timing = plan.steps[k].timing;
    timing.double_support = k == 0 ? transfer : lift_off[k] - touchdown[k - 1];
    timing.single_support = touchdown[k] - lift_off[k];
    result.steps[k].robot_time = result.time_offset + touchdown[k];
  }
  plan.steps.front().waist_height_change -= limits.waist_lowering;
  plan.steps.back().waist_height_change += limits.waist_lowering;
  plan.final_transfer = transfer;
  plan.final_hold = std::max(limits.settle_time, stretch * robot_end - touchdown.back() - transfer);
  return result;
}

double retimed_clip_time(const retarget::RetimedSamples& retimed, double clip_time) {
  const std::vector<double>& times = retimed.times;
  if (times.empty() || clip_time <= 0.0) return 0.0;
  const double sample = clip_time * retimed.source_rate;
  const std::size_t last = times.size() - 1;
  if (sample >= static_cast<double>(last))
    return times.back() + (sample - static_cast<double>(last)) / retimed.source_rate;
  const auto i = static_cast<std::size_t>(sample);
  const double u = sample - static_cast<double>(i);
  return times[i] + u * (times[i + 1] - times[i]);
}

}  // namespace mimic::pipeline
