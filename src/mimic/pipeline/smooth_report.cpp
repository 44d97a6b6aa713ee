#include "mimic/pipeline/smooth_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <sstream>
#include <vector>

#include "mimic/io/job_json.hpp"
#include "mimic/optim/solve_result.hpp"
#include "mimic/pipeline/geometry_report.hpp"

namespace mimic::pipeline {

namespace {

constexpr int kLegJointCount = 12;  // RLEG_JOINT0-5, LLEG_JOINT0-5 come first in OpenHRP order
constexpr int kWorstOthers = 4;

double max_slip(const evaluation::CheckReport& r) { return r.max_slip_position; }

}  // namespace

double torque_reduction(const SmoothResult& result) {
  const double before = result.before.torque_integral;
  return before > 0.0 ? (before - result.after.torque_integral) / before : 0.0;
}

std::string format_smooth_summary(const model::Model& model, const SmoothResult& r) {
  std::ostringstream out;
  out << fmt::format(
      "integral of tau^T tau: before {:.6g}, after {:.6g} N^2 m^2 s ({:+.2f} %; optimised "
      "spline {:.6g})\n",
      r.before.torque_integral, r.after.torque_integral, -100.0 * torque_reduction(r),
      r.optimized_torque_integral);
  out << "peak |torque| (N m), before -> after:\n";
  const auto line = [&](int j) {
    out << fmt::format(
        "  {:<13} {:8.2f} -> {:8.2f}  ({:+.1f} %)\n", model.joint_names[j], r.before.peak_torque[j],
        r.after.peak_torque[j],
        r.before.peak_torque[j] > 0.0
            ? 100.0 * (r.after.peak_torque[j] - r.before.peak_torque[j]) / r.before.peak_torque[j]
            : 0.0);
  };
  for (int j = 0; j < std::min(kLegJointCount, model.nj); ++j) line(j);
  std::vector<int> others(static_cast<std::size_t>(std::max(0, model.nj - kLegJointCount)));
  std::iota(others.begin(), others.end(), kLegJointCount);
  std::sort(others.begin(), others.end(), [&](int a, int b) {
    return r.after.peak_torque[a] / model.effort_limit[a] > r.after.peak_torque[b] / model.effort_limit[b];
  });
  if (!others.empty()) out << "  worst other joints (by peak / limit):\n";
  for (int i = 0; i < std::min<int>(kWorstOthers, static_cast<int>(others.size())); ++i) line(others[i]);
  out << fmt::format("peak torque ratio (factored limits): before {:.3f}, after {:.3f} ({})\n",
                     r.before.check.peak_torque_ratio, r.after.check.peak_torque_ratio,
                     r.after.check.peak_torque_joint);
  out << fmt::format(
      "support-foot slip: {:.3g} mm, {:.3g} deg (projection moved the legs by at most {:.3g} rad; "
      "before it the feet were off by {:.3g} mm, {:.3g} deg)\n",
      r.after.check.max_slip_position * 1e3, r.after.check.max_slip_angle * 180.0 / M_PI,
      r.projection.max_angle_change, r.projection.max_foot_error * 1e3,
      r.projection.max_foot_rotation * 180.0 / M_PI);
  out << fmt::format(
      "min ZMP margin: before {:.2f} mm, after {:.2f} mm (t = {:.3f} s){}\n",
      r.before.check.min_zmp_margin * 1e3, r.after.check.min_zmp_margin * 1e3,
      r.after.check.min_zmp_margin_time,
      r.stabilized ? ", cart-table stabilizer: " + r.stabilization.summary() : ", no stabilizer needed");
  if (r.after.check.geometry) {
    out << "geometry: " << evaluation::format_geometry_report(*r.after.check.geometry) << '\n';
    if (r.before.check.geometry)
      out << "  planned: " << evaluation::format_geometry_report(*r.before.check.geometry) << '\n';
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
  s["min_zmp_margin_m"] = r.after.check.min_zmp_margin;
  s["min_zmp_margin_before_m"] = r.before.check.min_zmp_margin;
  s["max_slip_m"] = max_slip(r.after.check);
  s["max_slip_rad"] = r.after.check.max_slip_angle;
  s["peak_torque_ratio"] = r.after.check.peak_torque_ratio;
  s["peak_torque_ratio_before"] = r.before.check.peak_torque_ratio;
  s["peak_velocity_ratio"] = r.after.check.peak_velocity_ratio;
  s["solver_status"] = optim::to_string(r.solve.status);
  s["solver_iterations"] = r.total_iterations;
  s["solves"] = r.solves;
  s["solver_seconds"] = r.solver_seconds;
  s["seconds"] = r.total_seconds;
  s["projection_max_angle_change_rad"] = r.projection.max_angle_change;
  s["zmp_stabilized"] = r.stabilized;
  s["max_waist_shift_m"] = r.max_base_shift;
  s["samples"] = static_cast<int>(r.motion.size());
  add_geometry_summary(s, r.after.check.geometry);
  if (r.before.check.geometry) {
    s["min_pair_distance_before_m"] = r.before.check.geometry->min_distance;
    s["min_sole_corner_height_before_m"] = r.before.check.geometry->min_corner_height;
  }
  auto& joints = json["joints"];
  joints = io::Json::array();
  for (int j = 0; j < model.nj; ++j) {
    io::Json entry = io::Json::object();
    entry["joint"] = model.joint_names[j];
    entry["peak_torque_before"] = r.before.peak_torque[j];
    entry["peak_torque_after"] = r.after.peak_torque[j];
    joints.push_back(std::move(entry));
  }
  return json;
}

}  // namespace mimic::pipeline
