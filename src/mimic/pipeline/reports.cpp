#include "mimic/pipeline/reports.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string_view>
#include <vector>

#include "mimic/core/number_text.hpp"
#include "mimic/io/job_json.hpp"
#include "mimic/optim/solve_result.hpp"

namespace mimic::pipeline {
namespace {

using evaluation::Peak;
using evaluation::ViolationKind;

constexpr int kWorstOthers = 4;

// The building blocks: each quantity is printed and serialised by one function.

// "peak |qdot|/limit 0.512 (RARM_JOINT3)"
std::string peak_text(std::string_view symbol, const Peak& peak) {
  return fmt::format("peak {}/limit {:.3f} ({})", symbol, peak.ratio, peak.joint);
}

// "peak_velocity_ratio" (+ suffix, e.g. "_before").
void add_peak_ratio(io::Json& summary, ViolationKind quantity, const Peak& peak,
                    std::string_view suffix = {}) {
  summary["peak_" + std::string(evaluation::to_string(quantity)) + "_ratio" + std::string(suffix)] =
      peak.ratio;
}

// "min_zmp_margin_m" ("min_zmp_margin_before_m" with suffix "_before").
void add_zmp_margin(io::Json& summary, double margin, std::string_view suffix = {}) {
  summary["min_zmp_margin" + std::string(suffix) + "_m"] = margin;
}

// "max_slip_m" and "max_slip_rad": how far a support foot drifted and turned while in support.
void add_slip(io::Json& summary, double position, double angle) {
  summary["max_slip_m"] = position;
  summary["max_slip_rad"] = angle;
}

void add_violation_count(io::Json& summary, const evaluation::Report& report) {
  summary["violations"] = static_cast<int>(report.violations.size());
}

io::Json violations_json(const std::vector<evaluation::Violation>& violations) {
  io::Json out = io::Json::array();
  for (const auto& v : violations) {
    io::Json j = io::Json::object();
    j["kind"] = evaluation::to_string(v.kind);
    j["where"] = v.where;
    j["time_s"] = v.time;
    j["value"] = v.value;
    j["limit"] = v.limit;
    j["excess"] = v.excess;
    j["samples"] = v.violating_samples;
    out.push_back(std::move(j));
  }
  return out;
}

// The contact intervals as the job YAML's `contacts:`.
io::Json contacts_json(const std::vector<model::ContactInterval>& intervals) {
  io::Json out = io::Json::array();
  for (const auto& c : intervals) {
    io::Json entry = io::Json::object();
    entry["start"] = c.start;
    entry["end"] = c.end;
    entry["support"] = io::to_string(c.phase);
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace

std::string format_geometry_report(const evaluation::GeometryReport& g) {
  // A flat sole computed through the legs sits at z = -3e-16 m: printed "-0.0000 m" it would read as
  // below the floor. Values that round to zero at the printed 0.1 mm are printed as 0.
  const auto shown = [](double metres) { return std::abs(metres) < 5e-5 ? 0.0 : metres; };
  const std::string pair = std::isfinite(g.min_distance)
                               ? fmt::format("{:.4f} m ({} / {}, t = {:.3f} s)", shown(g.min_distance),
                                             g.closest_first, g.closest_second, g.min_distance_time)
                               : std::string("none (no pair of shapes is checked)");
  const std::string corner = std::isfinite(g.min_corner_height)
                                 ? fmt::format("{:.4f} m ({} foot, t = {:.3f} s)", shown(g.min_corner_height),
                                               g.lowest_corner_foot, g.min_corner_time)
                                 : std::string("none (no sole corner)");
  return "min pair distance " + pair + "  min sole-corner height " + corner;
}

void add_geometry_summary(io::Json& summary, const std::optional<evaluation::GeometryReport>& geometry) {
  summary["geometry_checked"] = geometry.has_value();
  if (!geometry) return;
  const evaluation::GeometryReport& g = *geometry;
  const bool any_pair = std::isfinite(g.min_distance), any_corner = std::isfinite(g.min_corner_height);
  summary["safety_distance_m"] = g.safety_distance;
  summary["min_pair_distance_m"] = g.min_distance;  // null when infinite
  summary["closest_pair"] = any_pair ? io::Json(g.closest_first + " / " + g.closest_second) : io::Json();
  summary["min_pair_distance_time_s"] = any_pair ? io::Json(g.min_distance_time) : io::Json();
  summary["samples_below_safety_distance"] = g.samples_below_safety;
  summary["min_sole_corner_height_m"] = g.min_corner_height;
  summary["lowest_corner"] = any_corner ? io::Json(g.lowest_corner_foot) : io::Json();
  summary["min_sole_corner_height_time_s"] = any_corner ? io::Json(g.min_corner_time) : io::Json();
  summary["samples_below_ground"] = g.samples_below_ground;
}

std::string format_check_report(const evaluation::Report& r, int max_offenders) {
  std::ostringstream out;
  out << fmt::format("samples {}  duration {:.3f} s  rate {:.1f} Hz{}\n", r.samples, r.duration, r.rate,
                     r.base_reconstructed ? "  (base reconstructed from the support foot: no .waist)" : "");
  out << peak_text("|qdot|", evaluation::worst(r.velocity)) << "  "
      << peak_text("|tau|", evaluation::worst(r.torque)) << '\n';
  out << fmt::format("min ZMP margin {:.4f} m at t = {:.3f} s  max support-foot slip {:.3g} m, {:.3g} deg\n",
                     r.min_zmp_margin, r.min_zmp_margin_time, r.max_slip_position,
                     r.max_slip_angle * 180.0 / M_PI);
  if (r.geometry)
    out << format_geometry_report(*r.geometry) << "\n";
  else
    out << "geometry not checked: the robot has no collision model (limits only)\n";
  if (r.ok()) {
    out << (r.geometry ? "OK: every limit holds, no self-collision, no sole corner below the floor\n"
                       : "OK: every limit holds\n");
    return out.str();
  }
  out << fmt::format("VIOLATIONS ({} kinds of offence; worst first):\n", r.violations.size());
  int shown = 0;
  for (const auto& v : r.violations) {
    if (shown++ >= max_offenders) {
      out << fmt::format("  ... and {} more\n",
                         r.violations.size() - static_cast<std::size_t>(max_offenders));
      break;
    }
    out << fmt::format(
        "  {:<9} {:<22} t = {:8.3f} s  value {:+.5g}  limit {:.5g}  excess {:.4g}  ({} samples)\n",
        evaluation::to_string(v.kind), v.where, v.time, v.value, v.limit, v.excess, v.violating_samples);
  }
  return out.str();
}

io::Json check_report_json(const evaluation::Report& r, const std::string& motion) {
  io::Json json = io::Json::object();
  json["motion"] = motion;
  json["ok"] = r.ok();
  auto& s = json["summary"];
  s["samples"] = r.samples;
  s["duration_s"] = r.duration;
  s["rate_hz"] = r.rate;
  add_peak_ratio(s, ViolationKind::kVelocity, evaluation::worst(r.velocity));
  add_peak_ratio(s, ViolationKind::kTorque, evaluation::worst(r.torque));
  add_zmp_margin(s, r.min_zmp_margin);
  add_slip(s, r.max_slip_position, r.max_slip_angle);
  add_violation_count(s, r);
  add_geometry_summary(s, r.geometry);
  auto& joints = json["joints"];
  joints = io::Json::array();
  for (std::size_t j = 0; j < r.velocity.size(); ++j) {
    io::Json entry = io::Json::object();
    entry["joint"] = r.velocity[j].joint;
    entry["velocity_ratio"] = r.velocity[j].ratio;
    entry["torque_ratio"] = r.torque[j].ratio;
    joints.push_back(std::move(entry));
  }
  json["violations"] = violations_json(r.violations);
  return json;
}

std::string describe_closest_pair(const std::string& pair, double distance) {
  return pair.empty() ? std::string("no collision pairs")
                      : fmt::format("closest pair {} {:.4f} m", pair, distance);
}

namespace {

// The whole-body retarget's walk: travel, steps, timing, placement, clamps, smoothing.
void format_whole_body(std::ostream& out, const WholeBodyReport& w) {
  out << fmt::format(
      "travel: human {:.3f} m, scaled to the robot {:.3f} m, robot waist {:.3f} m ({:+.1f} % of the "
      "scaled)\n",
      w.human_travel, w.scaled_travel, w.robot_travel,
      w.scaled_travel > 0.0 ? 100.0 * (w.robot_travel - w.scaled_travel) / w.scaled_travel : 0.0);
  out << fmt::format(
      "steps: {} detected in the clip, {} planned, {} taken; touchdowns {:.3f} .. {:.3f} s, cadence {:.1f} "
      "steps/min (clip {:.1f}); time stretch {:.3f}; walk {:.3f} s\n",
      w.detected_steps, w.planned_steps, w.steps_taken, w.first_touchdown, w.last_touchdown, w.cadence,
      w.clip_cadence, w.time_stretch, w.duration);
  out << fmt::format(
      "foot placement against the scaled human footsteps: RMS {:.4f} m, max {:.4f} m; {} step(s) clamped\n",
      w.placement_rms, w.placement_max, w.clamped_steps);
  for (const std::string& clamp : w.clamps) out << "  " << clamp << '\n';
  const WalkUpperBodyReport& u = w.upper_body;
  out << fmt::format(
      "upper body: fitted at {} Hz, change RMS {:.4f} rad, max {:.4f} rad ({}); peak acceleration {:.1f} -> "
      "{:.1f} rad/s^2\n",
      u.cutoff, u.rms_change, u.max_change, u.max_change_joint, u.peak_acceleration_before,
      u.peak_acceleration_after);
  if (const UpperBodySolveReport& s = w.upper_body_solve; s.solves > 0) {
    out << fmt::format(
        "upper body solved on the walk (seed 000): joint RMSE {:.4f} -> {:.4f} rad, head/hand RMS {:.4f} -> "
        "{:.4f} m; peak |tau|/limit {:.3f} ({}), {}; {} solve(s), {} iterations, {:.2f} s CPU; walking "
        "pattern generated again\n",
        s.joint_rmse_fit, s.joint_rmse, s.position_rms_fit, s.position_rms, s.peak_torque,
        s.peak_torque_joint, describe_closest_pair(s.closest_pair, s.min_distance), s.solves, s.iterations,
        s.cpu_seconds);
  }
  out << fmt::format(
      "smoothing (seed 001, legs and waist): integral of tau^T tau {:.6g} -> {:.6g} N^2 m^2 s, {} solve(s)\n",
      w.torque_before, w.torque_after, w.solves);
}

void add_whole_body(io::Json& json, const WholeBodyReport& w) {
  auto& b = json["whole_body"];
  b["human_travel_m"] = w.human_travel;
  b["scaled_travel_m"] = w.scaled_travel;
  b["robot_travel_m"] = w.robot_travel;
  b["detected_steps"] = w.detected_steps;
  b["planned_steps"] = w.planned_steps;
  b["steps_taken"] = w.steps_taken;
  b["first_touchdown_s"] = w.first_touchdown;
  b["last_touchdown_s"] = w.last_touchdown;
  b["cadence_steps_per_min"] = w.cadence;
  b["clip_cadence_steps_per_min"] = w.clip_cadence;
  b["placement_rms_m"] = w.placement_rms;
  b["placement_max_m"] = w.placement_max;
  b["clamped_steps"] = w.clamped_steps;
  auto& clamps = b["clamps"];
  clamps = io::Json::array();
  for (const std::string& clamp : w.clamps) clamps.push_back(clamp);
  b["time_stretch"] = w.time_stretch;
  b["duration_s"] = w.duration;
  b["torque_integral_before"] = w.torque_before;
  b["torque_integral_after"] = w.torque_after;
  b["solves"] = w.solves;
  auto& u = b["upper_body"];
  u["cutoff_hz"] = w.upper_body.cutoff;
  u["change_rms_rad"] = w.upper_body.rms_change;
  u["change_max_rad"] = w.upper_body.max_change;
  u["change_max_joint"] = w.upper_body.max_change_joint;
  u["peak_acceleration_before"] = w.upper_body.peak_acceleration_before;
  u["peak_acceleration_after"] = w.upper_body.peak_acceleration_after;
  if (const UpperBodySolveReport& s = w.upper_body_solve; s.solves > 0) {
    auto& o = b["upper_body_solve"];
    o["solves"] = s.solves;
    o["iterations"] = s.iterations;
    o["solver_s"] = s.solver_seconds;
    o["cpu_s"] = s.cpu_seconds;
    o["torque_samples"] = s.torque_samples;
    o["collision_pairs"] = s.collision_pairs;
    o["joint_rmse_fit_rad"] = s.joint_rmse_fit;
    o["joint_rmse_rad"] = s.joint_rmse;
    o["position_rms_fit_m"] = s.position_rms_fit;
    o["position_rms_m"] = s.position_rms;
    o["peak_torque_ratio"] = s.peak_torque;
    o["peak_torque_joint"] = s.peak_torque_joint;
    // null for a robot without collision shapes, as the check's summary does
    const bool any_pair = !s.closest_pair.empty();
    o["min_pair_distance_m"] = any_pair ? io::Json(s.min_distance) : io::Json();
    o["closest_pair"] = any_pair ? io::Json(s.closest_pair) : io::Json();
    o["deep_collision_runs"] = s.deep_runs;
    o["end_shift_rad"] = s.end_shift;
  }
  // As a job's `contacts:`, so that `mimic check --config` can be given the walk's support phases.
  json["contacts"] = contacts_json(w.contacts);
}

}  // namespace

std::string format_retarget_summary(const RetargetPipelineResult& r) {
  std::ostringstream out;
  out << format_summary(r.kinematic, false);
  if (r.loop.loop.detected) out << r.loop.summary() << '\n';
  if (!r.mode_reason.empty()) out << "mode: " << r.mode_reason << '\n';
  if (r.whole_body) format_whole_body(out, *r.whole_body);
  if (r.optimized)
    out << fmt::format("optimisation: {} {} after {} iterations, objective {:.6g}\n", r.solver,
                       r.solver_status, r.solver_iterations, r.objective);
  const evaluation::ImitationErrors imitation = r.check.imitation.value_or(evaluation::ImitationErrors{});
  out << fmt::format("imitation: joint RMSE {:.4f} rad, head/hand error RMS {:.4f} m, max {:.4f} m\n",
                     imitation.joint_rmse, imitation.position_rms, imitation.position_max);
  out << fmt::format("torque: integral of tau^T tau {:.6g} N^2 m^2 s (every joint, as checked)",
                     r.check.torque_integral);
  if (r.optimized) out << fmt::format(", {:.6g} (imitating joints, optimised)", r.optimized_torque_integral);
  out << '\n';
  if (r.stabilized) out << "ZMP correction: " << r.stabilization.summary() << '\n';
  out << peak_text("|qdot|", evaluation::worst(r.check.velocity)) << ", "
      << peak_text("|tau|", evaluation::worst(r.check.torque))
      << fmt::format(", min ZMP margin {:.4f} m\n", r.check.min_zmp_margin);
  if (r.check.geometry) out << format_geometry_report(*r.check.geometry) << '\n';
  out << "time per stage:";
  for (const auto& s : r.stages) out << fmt::format("  {} {:.2f} s", s.stage, s.seconds);
  out << '\n';
  return out.str();
}

io::Json retarget_report_json(const io::JobConfig& job, const RetargetPipelineResult& r) {
  const evaluation::ImitationErrors imitation = r.check.imitation.value_or(evaluation::ImitationErrors{});
  const Peak& velocity = evaluation::worst(r.check.velocity);
  const Peak& torque = evaluation::worst(r.check.torque);
  io::Json json = io::Json::object();
  json["input"] = job.input.string();
  json["output"] = job.output.path.string();
  auto& s = json["summary"];
  s["source_frames"] = r.kinematic.source_frames;
  s["source_rate_hz"] = r.kinematic.source_rate;
  s["duration_before_s"] = r.kinematic.timing.source_duration();
  s["duration_after_s"] = r.kinematic.reference.duration();
  s["slow_down"] = r.kinematic.timing.slow_down();
  s["joint_rmse_rad"] = imitation.joint_rmse;
  s["end_effector_rms_m"] = imitation.position_rms;
  s["end_effector_max_m"] = imitation.position_max;
  s["torque_integral"] = r.check.torque_integral;
  s["optimized_torque_integral"] = r.optimized_torque_integral;
  add_peak_ratio(s, ViolationKind::kVelocity, velocity);
  add_peak_ratio(s, ViolationKind::kTorque, torque);
  add_zmp_margin(s, r.check.min_zmp_margin);
  add_slip(s, r.check.max_slip_position, r.check.max_slip_angle);
  add_violation_count(s, r.check);
  add_geometry_summary(s, r.check.geometry);
  s["solver_iterations"] = r.solver_iterations;
  s["objective"] = r.objective;
  json["solver"] = r.optimized ? io::Json(r.solver) : io::Json();
  json["solver_status"] = r.optimized ? io::Json(r.solver_status) : io::Json("kinematic only");
  json["peak_velocity_joint"] = velocity.joint;
  json["peak_torque_joint"] = torque.joint;
  if (r.stabilized) {
    auto& z = json["zmp_correction"];
    z["converged"] = r.stabilization.converged;
    z["iterations"] = r.stabilization.iterations;
    z["initial_worst_margin_m"] = r.stabilization.initial_worst_margin;
    z["final_worst_margin_m"] = r.stabilization.final_worst_margin;
    z["max_waist_shift_m"] = r.stabilization.max_waist_shift;
  }
  json["mode"] = r.whole_body ? "whole_body" : "upper_body";
  json["mode_reason"] = r.mode_reason;
  if (r.whole_body_failure) {
    json["whole_body_failure"]["stage"] = r.whole_body_failure->stage;
    json["whole_body_failure"]["reason"] = r.whole_body_failure->reason;
  }
  if (r.loop.loop.detected) {
    // Only for a looping clip (retarget/clip_loop.hpp): other reports are unchanged.
    auto& l = json["loop"];
    l["cycle_s"] = r.loop.loop.cycle_duration;
    l["cycle_frames"] = r.loop.loop.cycle_frames;
    l["closing_duplicate"] = r.loop.loop.closing_duplicate;
    l["repeats"] = r.loop.repeats;
    l["repeats_auto"] = r.loop.repeats_auto;
    l["cycle_steps"] = r.loop.cycle_steps;
    l["reason"] = r.loop.loop.reason;
  }
  if (r.whole_body) add_whole_body(json, *r.whole_body);
  auto& stages = json["stages_s"];
  for (const auto& st : r.stages) stages[st.stage] = st.seconds;
  json["job"] = io::job_to_json(job);
  return json;
}

std::string short_of_optimum_warning(const optim::SolveResult& solve, std::string_view motion) {
  if (solve.success()) return "";
  return fmt::format(
      "the solver stopped before its stationarity tolerance ({}): the {} is feasible and passes the check, "
      "but a more optimal one may exist",
      solve.reason, motion);
}

double torque_reduction(const SmoothResult& result) {
  const double before = result.before.torque_integral;
  return before > 0.0 ? (before - result.after.torque_integral) / before : 0.0;
}

std::string format_smooth_summary(const Robot& robot, const SmoothResult& r) {
  const model::Model& model = robot.model;
  // |tau| at each joint's peak, N m.
  const auto peak_torque = [](const evaluation::Report& report, int j) {
    return std::abs(report.torque[static_cast<std::size_t>(j)].value);
  };
  std::ostringstream out;
  out << fmt::format(
      "integral of tau^T tau: before {:.6g}, after {:.6g} N^2 m^2 s ({:+.2f} %; optimised "
      "spline {:.6g})\n",
      r.before.torque_integral, r.after.torque_integral, -100.0 * torque_reduction(r),
      r.optimized_torque_integral);
  out << "peak |torque| (N m), before -> after:\n";
  // The name column fits HRP-2's names (13) or the robot's longest (G1's left_shoulder_pitch_joint).
  std::size_t width = 13;
  for (const std::string& name : model.joint_names) width = std::max(width, name.size());
  const auto line = [&](int j) {
    const double before = peak_torque(r.before, j), after = peak_torque(r.after, j);
    out << fmt::format("  {:<{}} {:8.2f} -> {:8.2f}  ({:+.1f} %)\n", model.joint_names[j], width, before,
                       after, before > 0.0 ? 100.0 * (after - before) / before : 0.0);
  };
  std::vector<bool> is_leg(static_cast<std::size_t>(model.nj), false);
  for (const auto* leg : {&robot.description.groups.right_leg, &robot.description.groups.left_leg})
    for (const std::string& name : *leg) {
      const int j = model.joint_index(name);
      is_leg[static_cast<std::size_t>(j)] = true;
      line(j);
    }
  // The other joints in model order, then worst first.
  std::vector<int> others;
  for (int j = 0; j < model.nj; ++j)
    if (!is_leg[static_cast<std::size_t>(j)]) others.push_back(j);
  std::sort(others.begin(), others.end(), [&](int a, int b) {
    return peak_torque(r.after, a) / model.effort_limit[a] > peak_torque(r.after, b) / model.effort_limit[b];
  });
  if (!others.empty()) out << "  worst other joints (by peak / limit):\n";
  for (int i = 0; i < std::min<int>(kWorstOthers, static_cast<int>(others.size())); ++i) line(others[i]);
  const Peak& torque_after = evaluation::worst(r.after.torque);
  out << fmt::format("peak |tau|/limit (effort limits of the model): before {:.3f}, after {:.3f} ({})\n",
                     evaluation::worst(r.before.torque).ratio, torque_after.ratio, torque_after.joint);
  out << fmt::format(
      "support-foot slip: {:.3g} mm, {:.3g} deg (projection moved the legs by at most {:.3g} rad; "
      "before it the feet were off by {:.3g} mm, {:.3g} deg)\n",
      r.after.max_slip_position * 1e3, r.after.max_slip_angle * 180.0 / M_PI, r.projection.max_angle_change,
      r.projection.max_foot_error * 1e3, r.projection.max_foot_rotation * 180.0 / M_PI);
  out << fmt::format(
      "min ZMP margin: before {:.2f} mm, after {:.2f} mm (t = {:.3f} s){}\n", r.before.min_zmp_margin * 1e3,
      r.after.min_zmp_margin * 1e3, r.after.min_zmp_margin_time,
      r.stabilized ? ", cart-table stabilizer: " + r.stabilization.summary() : ", no stabilizer needed");
  if (r.after.geometry) {
    out << "geometry: " << format_geometry_report(*r.after.geometry) << '\n';
    if (r.before.geometry) out << "  planned: " << format_geometry_report(*r.before.geometry) << '\n';
  }
  out << fmt::format(
      "waist: shifted horizontally by at most {:.2f} mm from the plan (height and orientation "
      "as planned)\n",
      r.max_base_shift * 1e3);
  out << fmt::format(
      "solver: {} after {} iterations in {} solve(s), {:.2f} s ({} variables, {} support equalities, "
      "{} torque samples); total {:.2f} s\n",
      optim::to_string(r.solve.status), r.total_iterations, r.solves, r.solver_seconds, r.variables,
      r.equalities, r.torque_samples, r.total_seconds);
  return out.str();
}

io::Json smooth_report_json(const io::JobConfig& job, const model::Model& model, const SmoothResult& r) {
  io::Json json = io::Json::object();
  json["job"] = io::job_to_json(job);
  json["ok"] = r.success;
  if (!r.success) json["failure"] = r.failure;
  auto& s = json["summary"];
  s["torque_integral_before"] = r.before.torque_integral;
  s["torque_integral_after"] = r.after.torque_integral;
  s["reduction"] = torque_reduction(r);
  s["optimized_torque_integral"] = r.optimized_torque_integral;
  add_zmp_margin(s, r.after.min_zmp_margin);
  add_zmp_margin(s, r.before.min_zmp_margin, "_before");
  add_slip(s, r.after.max_slip_position, r.after.max_slip_angle);
  add_peak_ratio(s, ViolationKind::kTorque, evaluation::worst(r.after.torque));
  add_peak_ratio(s, ViolationKind::kTorque, evaluation::worst(r.before.torque), "_before");
  add_peak_ratio(s, ViolationKind::kVelocity, evaluation::worst(r.after.velocity));
  s["solver_status"] = optim::to_string(r.solve.status);
  s["solver_iterations"] = r.total_iterations;
  s["solves"] = r.solves;
  s["solver_seconds"] = r.solver_seconds;
  s["seconds"] = r.total_seconds;
  s["projection_max_angle_change_rad"] = r.projection.max_angle_change;
  s["zmp_stabilized"] = r.stabilized;
  s["max_waist_shift_m"] = r.max_base_shift;
  s["samples"] = static_cast<int>(r.motion.size());
  add_geometry_summary(s, r.after.geometry);
  if (r.before.geometry) {
    s["min_pair_distance_before_m"] = r.before.geometry->min_distance;
    s["min_sole_corner_height_before_m"] = r.before.geometry->min_corner_height;
  }
  auto& joints = json["joints"];
  joints = io::Json::array();
  for (int j = 0; j < model.nj; ++j) {
    const auto joint = static_cast<std::size_t>(j);
    io::Json entry = io::Json::object();
    entry["joint"] = model.joint_names[joint];
    entry["peak_torque_before"] = std::abs(r.before.torque[joint].value);
    entry["peak_torque_after"] = std::abs(r.after.torque[joint].value);
    joints.push_back(std::move(entry));
  }
  return json;
}

std::string format_walk_summary(const std::filesystem::path& output, const WalkResult& walk) {
  const walking::WalkingPattern& pattern = walk.pattern;
  const walking::WalkingSummary& s = walk.summary;
  const auto mm = [](double m) { return core::format_number(std::round(m * 1e4) / 10.0); };
  std::ostringstream out;
  out << output.string() << ": " << s.steps << " steps, " << s.duration << " s, " << pattern.size()
      << " samples (CoM height " << mm(pattern.com_height) << " mm)\n"
      << "  multibody ZMP: max deviation from the reference " << mm(s.max_zmp_deviation)
      << " mm (t = " << s.max_zmp_deviation_time << " s), min margin in the support polygon "
      << mm(s.min_zmp_margin) << " mm (t = " << s.min_zmp_margin_time << " s)\n"
      << "  joints: peak |qdot| / limit " << core::format_number(std::round(s.velocity.ratio * 1e3) / 1e3)
      << " (" << s.velocity.joint << ", t = " << s.velocity.time << " s), nearest angle limit "
      << core::format_number(std::round(s.min_angle_margin * 1e4) / 1e4) << " rad ("
      << s.min_angle_margin_joint << ")\n"
      << "  feet: support slip " << fmt::format("{:.3g}", s.max_support_slip) << " m, landing error "
      << fmt::format("{:.3g}", s.max_landing_error) << " m\n"
      << "  geometry: " << format_geometry_report(walk.geometry) << "\n";
  return out.str();
}

io::Json walk_report_json(const io::JobConfig& job, const WalkResult& walk) {
  const walking::WalkingSummary& s = walk.summary;
  io::Json json = io::Json::object();
  json["job"] = io::job_to_json(job);
  auto& m = json["summary"];
  m["duration_s"] = s.duration;
  m["steps"] = s.steps;
  m["samples"] = static_cast<int>(walk.pattern.size());
  m["com_height_m"] = walk.pattern.com_height;
  m["max_zmp_deviation_m"] = s.max_zmp_deviation;
  add_zmp_margin(m, s.min_zmp_margin);
  add_peak_ratio(m, ViolationKind::kVelocity, s.velocity);
  m["min_angle_margin_rad"] = s.min_angle_margin;
  add_slip(m, s.max_support_slip, s.max_support_rotation);
  m["max_landing_error_m"] = s.max_landing_error;
  add_geometry_summary(m, walk.geometry);
  json["contacts"] = contacts_json(walk.pattern.contact_intervals);
  return json;
}

}  // namespace mimic::pipeline
