// The one place that turns reports into what a user reads (docs/ARCHITECTURE.md, "Reports"): the stdout
// summary of every command and the "summary" objects of their JSON reports. The commands combine their
// stage reports with the evaluation::Report of the motion they write (or check); the same quantity (a peak,
// the ZMP margin, the slip, the geometry, the violations) is printed and serialised here by the same code,
// under the same JSON key in every report, so that batch (pipeline/batch.cpp) and users read them alike.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "mimic/evaluation/geometry_check.hpp"
#include "mimic/evaluation/report.hpp"
#include "mimic/io/job.hpp"
#include "mimic/io/json.hpp"
#include "mimic/model/model.hpp"
#include "mimic/optim/solve_result.hpp"
#include "mimic/pipeline/retarget_pipeline.hpp"
#include "mimic/pipeline/robot.hpp"
#include "mimic/pipeline/smooth.hpp"
#include "mimic/pipeline/walk.hpp"

namespace mimic::pipeline {

// The geometry in one line: "min pair distance 0.0123 m (HEAD_LINK1 / RARM_LINK6, t = 1.234 s)  min
// sole-corner height 0.0000 m (right foot, t = 0.000 s)", with "none" for a model without pairs / corners.
std::string format_geometry_report(const evaluation::GeometryReport& geometry);

// The closest pair an optimisation constrained, for its log line and summary: "closest pair HEAD_LINK1 /
// RARM_LINK6 0.0123 m", or "no collision pairs" when the robot has no collision shapes (`pair` empty).
std::string describe_closest_pair(const std::string& pair, double distance);

// Adds to `summary`: geometry_checked, and when checked safety_distance_m, min_pair_distance_m,
// closest_pair ("HEAD_LINK1 / RARM_LINK6"), min_pair_distance_time_s, samples_below_safety_distance,
// min_sole_corner_height_m, lowest_corner ("right" / "left" foot), min_sole_corner_height_time_s,
// samples_below_ground. A number that does not exist (no pair, no corner) is null.
void add_geometry_summary(io::Json& summary, const std::optional<evaluation::GeometryReport>& geometry);

// `mimic check`: the report with at most `max_offenders` violations listed, and its JSON ("motion", "ok",
// "summary", the peaks of every joint in "joints", "violations").
std::string format_check_report(const evaluation::Report& report, int max_offenders = 10);
io::Json check_report_json(const evaluation::Report& report, const std::string& motion);

// `mimic retarget`: the kinematic retarget, the optimisation, the imitation errors, the ZMP correction, the
// check of the written motion and the time per stage.
std::string format_retarget_summary(const RetargetPipelineResult& result);
io::Json retarget_report_json(const io::JobConfig& job, const RetargetPipelineResult& result);

// The warning of a solve that stopped on a feasible point short of its stationarity tolerance (stalled,
// iteration or time cap), whose `motion` ("smoothed motion") is written since it passes the check; empty
// when the solve converged. Retarget and smooth word it the same way.
std::string short_of_optimum_warning(const optim::SolveResult& solve, std::string_view motion);

// `mimic smooth`. Its "summary" carries the headline numbers batch reads: torque_integral_before / _after,
// reduction, min_zmp_margin_m, max_slip_m, peak_torque_ratio, solver_iterations, seconds and the geometry.
// Relative reduction of the torque integral, (before - after) / before.
double torque_reduction(const SmoothResult& result);
// Torque integral before / after, peak |torque| of the leg joints (the description's right_leg, then
// left_leg) and of the worst other joints, slip, ZMP margin, the geometry (after and planned), solver
// status / iterations / time.
std::string format_smooth_summary(const Robot& robot, const SmoothResult& result);
io::Json smooth_report_json(const io::JobConfig& job, const model::Model& model, const SmoothResult& result);

// `mimic walk`: steps, duration and samples, the multibody ZMP's deviation and margin, the joint velocity
// peak and nearest angle limit, the feet and the geometry; the JSON with the support phases as the job
// YAML's `contacts:`.
std::string format_walk_summary(const std::filesystem::path& output, const WalkResult& walk);
io::Json walk_report_json(const io::JobConfig& job, const WalkResult& walk);

}  // namespace mimic::pipeline
