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

  // The body pose (centre, heading) that `foot` placed at `placement` implies.
  std::pair<Vector2d, double> body(Foot foot, const FootPlacement& placement) const {
    const std::size_t f = index_of(foot);
    const double heading = placement.yaw - toe[f];
    return {placement.position - rotate(heading, offset[f]), heading};
  }
  // Where `foot` stands in the body pose (centre, heading).
  FootPlacement placed(Foot foot, const Vector2d& centre, double heading) const {
    const std::size_t f = index_of(foot);
    return {centre + rotate(heading, offset[f]), heading + toe[f]};
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
  const double sole_gap = inner_edge + limits.min_width - nearest_corner;
  const double narrowest = std::max(sole_gap, limits.min_leg_spacing);
  // The extra width shrinks as the step gets longer (a diamond in x and extra width): a leg reaches a
  // long step or a wide one, not both at once (jrl-walkgen's hull narrows likewise towards +-0.28 m).
  const double reach_along = rel.position.x() >= 0.0 ? rel.position.x() / limits.max_forward
                                                     : -rel.position.x() / limits.max_backward;
  const double extra = limits.max_lateral * std::max(0.0, 1.0 - reach_along);
  const double widest = std::max(narrowest, side * nominal.position.y() + extra);
  const double width = side * rel.position.y();
  if (width < narrowest) {
    adjustments.push_back(
        "width " + milli(width) + " m < " + milli(narrowest) +
        (sole_gap >= limits.min_leg_spacing
             ? " m: widened (the soles would come closer than min_width " + milli(limits.min_width) + " m)"
             : " m: widened (the legs' collision shapes need " + milli(limits.min_leg_spacing) +
                   " m between the soles)"));
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

// A clip step up to 1 + kCatchUpLag robot reaches away (clip_footstep_plan.hpp, "Steps") is one clamped step:
// the robot lags behind the human's path by at most one of its own steps, which the next steps' targets
// (aimed at the human's path, not at the robot's last foot) take up. A catch-up pair costs two step cycles
// (1.6 s on HRP-2): with a lag of half a reach allowed, each of the shipped walk's 0.46 m steps (1.53 of
// HRP-2's 0.3 m reach) took a pair, 3 robot steps per human step where 2 do on average.
constexpr double kCatchUpLag = 1.0;
// At most this many pairs before one clip step (G1's 0.1 m steps after a human's 0.8 m stride need 4).
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
    // The foot `moving` towards `aim` from the support foot's placement `support`, clamped to the limits,
    // with the clamps' messages.
    const auto reach = [&](const FootPlacement& support, Foot moving, const FootPlacement& aim,
                           std::vector<std::string>& adjustments) {
      return in_world(support, clamp_step(relative_to(support, aim), moving, nominal[index_of(moving)],
                                          limits, adjustments));
    };
    const FootPlacement& support = current[index_of(other)];
    // How many robot reaches away the clip's step is: its length along the support foot over max_forward
    // (or max_backward). A side lunge, a crossed foot or a turn beyond max_turn is only clamped: more steps
    // would not bring a lunge closer, and a clip's foot headings swing by more than a robot's hip yaw
    // between two steps (CMU 131_01 turns its feet 2 rad apart: 7 reaches of 0.3 rad).
    const FootPlacement wanted = relative_to(support, target);
    const double along = wanted.position.x() - nominal[f].position.x();
    const double reaches = std::max(along / limits.max_forward, -along / limits.max_backward);
    std::vector<std::string> adjustments;
    FootPlacement placed;
    if (reaches <= 1.0 + kCatchUpLag) {
      placed = reach(support, foot, target, adjustments);
    } else {
      // Catch-up pairs: 2 pairs + 1 steps, each a 1 / (2 pairs + 1) share of the way from the body pose the
      // support foot implies to the one the target implies (position and heading), feet alternating, so
      // that no step of the group is longer than the reach and none is needlessly short.
      const int pairs = std::min(kMaxCatchUpPairs, static_cast<int>(std::ceil(0.5 * (reaches - 1.0))));
      const int count = 2 * pairs + 1;
      const auto [from, from_heading] = robot.body(other, support);
      const auto [to, to_heading] = robot.body(foot, target);
      const double turn = angle_difference(to_heading, from_heading);
      for (int k = 1; k < count; ++k) {
        const double u = static_cast<double>(k) / count;
        const Foot moving = k % 2 == 1 ? foot : other;
        const FootPlacement aim = robot.placed(moving, from + u * (to - from), from_heading + u * turn);
        std::vector<std::string> ignored;
        add(moving, aim, reach(current[index_of(walking::other_foot(moving))], moving, aim, ignored),
            {"inserted: a catch-up step towards the clip's step"}, true);
      }
      placed = reach(current[index_of(other)], foot, target, adjustments);
      adjustments.insert(adjustments.begin(),
                         "the clip's step is " + format_number(std::round(reaches * 100.0) / 100.0) +
                             " of the robot's reach away: " + std::to_string(count - 1) +
                             " catch-up steps before it, the " + std::to_string(count) + " evenly spaced");
    }
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
  result.stretch_start = events[first_clip_step].lift_off;
  result.stretch_end = std::max(result.stretch_start, events.back().touchdown);
  // The stretched clock before the offset.
  const auto stretched = [&](double t) { return result.plan_time(t) - result.time_offset; };

  // The wanted events on the plan's clock (before the offset): the clip's, stretched; a catch-up step
  // one cycle before the next step's lift-off (the last one) or touchdown.
  std::vector<double> wanted_lift_off(events.size()), wanted_touchdown(events.size());
  for (std::size_t k = events.size(); k-- > 0;) {
    if (events[k].inserted) {
      wanted_touchdown[k] = wanted_lift_off[k + 1] - limits.min_double_support;
      wanted_lift_off[k] = wanted_touchdown[k] - limits.min_single_support;
    } else {
      wanted_lift_off[k] = stretched(events[k].lift_off);
      wanted_touchdown[k] = stretched(events[k].touchdown);
    }
  }

  // The events, one step after the other: a lift-off no earlier than the previous touchdown +
  // min_double_support, no later than its touchdown - min_single_support; when the cycle is too short for
  // both, the touchdown waits (the clip steps faster here than the robot can; a later, slower cycle
  // absorbs the delay). Moves of a catch-up step are not reported: its times are the plan's own.
  std::vector<double> lift_off(events.size()), touchdown(events.size());
  for (std::size_t k = 0; k < events.size(); ++k) {
    const double after_transfer = k == 0 ? -INFINITY : touchdown[k - 1] + limits.min_double_support;
    // A swing no longer than max_single_support (0: unbounded): a longer cycle waits in double support.
    const double before_touchdown =
        limits.max_single_support > 0.0 ? wanted_touchdown[k] - limits.max_single_support : -INFINITY;
    const double earliest = std::max(after_transfer, before_touchdown);
    const double latest = wanted_touchdown[k] - limits.min_single_support;
    lift_off[k] = earliest <= latest ? std::clamp(wanted_lift_off[k], earliest, latest) : earliest;
    touchdown[k] = std::max(wanted_touchdown[k], lift_off[k] + limits.min_single_support);
    if (events[k].inserted) continue;
    std::vector<std::string>& adjustments = result.steps[k].adjustments;
    if (lift_off[k] > wanted_lift_off[k] + 1e-9)
      adjustments.push_back(
          "lift-off delayed by " + milli(lift_off[k] - wanted_lift_off[k]) +
          (after_transfer >= before_touchdown
               ? " s: the transfer lasts min_double_support " + milli(limits.min_double_support) + " s"
               : " s: the swing lasts at most max_single_support " + milli(limits.max_single_support) +
                     " s"));
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
  plan.final_waist_height_change = limits.waist_lowering;
  plan.final_transfer = transfer;
  plan.final_hold = std::max(limits.settle_time, stretched(robot_end) - touchdown.back() - transfer);
  return result;
}

double ClipFootstepPlan::robot_time_at(double plan_time) const {
  const double t = plan_time - time_offset;
  if (t <= stretch_start) return t;
  const double walk_end = stretch_start + time_stretch * (stretch_end - stretch_start);
  if (t >= walk_end) return stretch_end + (t - walk_end);
  return stretch_start + (t - stretch_start) / time_stretch;
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
