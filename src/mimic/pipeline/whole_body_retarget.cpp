#include "mimic/pipeline/whole_body_retarget.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/io/csv_motion.hpp"
#include "mimic/pipeline/clip_footstep_plan.hpp"
#include "mimic/pipeline/imitation_errors.hpp"
#include "mimic/pipeline/job_options.hpp"
#include "mimic/pipeline/sample_budget.hpp"
#include "mimic/pipeline/smooth.hpp"
#include "mimic/pipeline/step_limits.hpp"
#include "mimic/pipeline/whole_body_leg_spacing.hpp"
#include "mimic/pipeline/whole_body_upper_body.hpp"
#include "mimic/pipeline/whole_body_upper_body_solve.hpp"
#include "mimic/walking/walking_pattern.hpp"

namespace mimic::pipeline {
namespace {

// How many clamp messages the summary and the report carry (the count has them all).
constexpr std::size_t kClampMessages = 3;

// The stationarity the legs' smoothing of a whole-body walk stops at (|grad L|_inf / max(1, |grad f|_inf),
// optim::AlmOptions), when the job asks for less. Once feasible, these solves stall between 1e-4 and 1e-3
// with 100 Gauss-Newton steps per ALM iteration: on walk.bvh (5014 samples) the torque integral no longer
// moved in its 6th digit (57057.1) from the 6th iteration on, the violation fell to 1e-9 by the 9th, and
// 91 more iterations of 100 steps each were left (over an hour). The geometry rows (sole corners above the
// floor, swing-sole tilt, pair distances) are what stalls them: a 3.5 s cut of walk.bvh converges to 1e-6
// in 7 iterations of about 20 steps without them, and stalls with them (also with a swing tilt of 0.5 rad
// or a safety distance of 1 mm). The feasibility tolerance is the job's.
constexpr double kWalkStationarity = 1e-3;
// At most this many ALM iterations per solve of that smoothing, when the job allows more: with the seed's
// penalty schedule (x10 from 10) the penalty reaches its 1e8 cap at the 8th iteration, and the stalled
// iterations after it move neither the objective nor the violation (a 3.5 s cut of walk.bvh: stationarity
// 0.0138, 0.004 at iterations 11 and 12, violation 2e-8). A solve stopped there feasible is a success
// (pipeline/smooth.hpp); an infeasible one fails the stage as before.
constexpr int kWalkOuterIterations = 15;
// With inner solves stopped at 1e-3, the seed's schedule (x10 per iteration whatever the violation) drove
// a 3.5 s cut of walk.bvh into infeasibility (violation 0.15 at the penalty cap, objective x3); the adaptive
// schedule (optim::PenaltySchedule::kAdaptive: the penalty grows only while the violation does not fall
// to a quarter) reached 2.5e-7 in 12 iterations of few steps.
constexpr optim::PenaltySchedule kWalkPenaltySchedule = optim::PenaltySchedule::kAdaptive;

// The planned motion's violations, one line each (kind, joint or foot, worst time, samples): what the
// smoothing starts from, logged at debug level to tell the upper body's torques from the legs' rows.
void log_violations(const std::string& what, const evaluation::Report& report) {
  for (const evaluation::Violation& v : report.violations)
    spdlog::debug("{}: {} ({} sample(s))", what, evaluation::describe(v), v.violating_samples);
}

[[noreturn]] void stage_failed(const io::JobConfig& job, const std::string& stage,
                               const std::string& reason) {
  throw WholeBodyStageError(job.input.string(), stage, reason);
}

// Single-support runs of the written motion.
int single_support_runs(const model::SampledMotion& motion) {
  int runs = 0;
  model::ContactPhase previous = model::ContactPhase::kDoubleSupport;
  for (model::ContactPhase phase : motion.phases) {
    if (phase != model::ContactPhase::kDoubleSupport && phase != previous) ++runs;
    previous = phase;
  }
  return runs;
}

void measure(const Robot& robot, const retarget::ClipContacts& contacts, const ClipFootstepPlan& planned,
             const walking::WalkSchedule& schedule, const model::SampledMotion& motion,
             WholeBodyReport& out) {
  const model::Model& model = robot.model;
  out.human_travel = planned.human_travel;
  out.scaled_travel = planned.scaled_travel;
  out.robot_travel = (motion.q.col(motion.size() - 1).head<2>() - motion.q.col(0).head<2>()).norm();
  out.detected_steps = contacts.step_count();
  out.planned_steps = static_cast<int>(planned.steps.size());
  out.steps_taken = single_support_runs(motion);
  out.clip_cadence = contacts.cadence();
  out.time_stretch = planned.time_stretch;
  out.duration = motion.times.back() - motion.times.front();
  for (std::size_t i = 0; i < planned.steps.size(); ++i) {
    const auto& step = planned.steps[i];
    if (step.adjustments.empty()) continue;
    ++out.clamped_steps;
    for (const std::string& message : step.adjustments) {
      if (out.clamps.size() < kClampMessages)
        out.clamps.push_back(fmt::format("step {} ({}): {}", i + 1, walking::to_string(step.foot), message));
    }
  }
  // Touchdowns: the ends of the schedule's swings. The sole is measured a control period after its
  // touchdown, when the written motion holds it in support.
  std::vector<double> touchdowns(planned.steps.size(), 0.0);
  for (const walking::WalkPhase& phase : schedule.phases()) {
    if (phase.kind == walking::WalkPhaseKind::kSwing && phase.step >= 0 &&
        static_cast<std::size_t>(phase.step) < touchdowns.size())
      touchdowns[static_cast<std::size_t>(phase.step)] = phase.end;
  }
  if (!touchdowns.empty()) {
    out.first_touchdown = touchdowns.front();
    out.last_touchdown = touchdowns.back();
    if (touchdowns.size() > 1 && out.last_touchdown > out.first_touchdown)
      out.cadence =
          60.0 * static_cast<double>(touchdowns.size() - 1) / (out.last_touchdown - out.first_touchdown);
  }
  model::Data data(model);
  double sum_sq = 0.0;
  const double period = motion.size() > 1 ? motion.times[1] - motion.times[0] : 0.0;
  for (std::size_t i = 0; i < planned.steps.size(); ++i) {
    const double t = touchdowns[i] + period;
    const auto it = std::lower_bound(motion.times.begin(), motion.times.end(), t);
    const Eigen::Index k =
        std::min<Eigen::Index>(static_cast<Eigen::Index>(it - motion.times.begin()), motion.size() - 1);
    dynamics::forward_kinematics(model, data, motion.q.col(k));
    const int frame = planned.steps[i].foot == walking::Foot::kRight ? robot.feet.right_sole_frame
                                                                     : robot.feet.left_sole_frame;
    const Eigen::Vector2d sole = dynamics::update_frame_placement(model, data, frame).p.head<2>();
    const double error = (sole - planned.steps[i].scaled_human).norm();
    sum_sq += error * error;
    out.placement_max = std::max(out.placement_max, error);
  }
  if (!planned.steps.empty())
    out.placement_rms = std::sqrt(sum_sq / static_cast<double>(planned.steps.size()));
}

}  // namespace

WholeBodyStageError::WholeBodyStageError(const std::string& clip, std::string stage, std::string reason)
    : InfeasibleError(fmt::format("{}: whole-body retarget, {}: {}; nothing written", clip, stage, reason)),
      stage_(std::move(stage)),
      reason_(std::move(reason)) {}

void run_whole_body_stages(const io::JobConfig& job, const Robot& robot,
                           const retarget::ClipContacts& contacts, RetargetPipelineResult& result,
                           StageTimer& timer, const ProgressCallback& progress) {
  const model::Model& model = robot.model;
  const model::RobotDescription& description = robot.description;
  check_smooth_joints(description);
  const KinematicRetargetResult& kinematic = result.kinematic;
  const retarget::ReferenceMotion& reference = kinematic.reference;

  // Step 2: the footsteps, from the nominal stance (the reference's legs and waist at its first sample).
  // The footsteps scale by the legs (footstep_scale), not by the arms as the upper body does.
  const auto [right, left] = nominal_stance(description, model);
  StepLimits limits = step_limits(description, model);
  if (robot.collision) {
    // The legs' shapes bound the stance's width too (pipeline/whole_body_leg_spacing.hpp).
    const LegSpacing spacing = leg_spacing(model, description, stability::Legs::of(model, robot.feet),
                                           *robot.collision, job.geometry.safety_distance);
    limits.min_leg_spacing = spacing.spacing;
    spdlog::debug(
        "whole body: legs {:.4f} m apart in the nominal stance (soles {:.4f} m apart); the soles at least "
        "{:.4f} m apart keep them {:.3f} m apart ({})",
        spacing.nominal_distance, spacing.nominal_spacing, spacing.spacing,
        job.geometry.safety_distance + kLegClearance,
        spacing.closest_pair >= 0 ? robot.collision->pair_name(spacing.closest_pair) : "no leg pair");
  }
  ClipFootstepPlan planned = plan_clip_footsteps(
      contacts, footstep_scale(limits, contacts.leg_length),
      [&](double t) { return retimed_clip_time(kinematic.timing, t); }, right, left, limits);
  planned.plan.source = job.input.string();
  for (std::size_t i = 0; i < planned.plan.steps.size(); ++i) {
    const walking::Footstep& step = planned.plan.steps[i];
    spdlog::debug(
        "step {} {}: ({:.3f}, {:.3f}) yaw {:.3f}, transfer {:.3f} s, swing {:.3f} s; human ({:.3f}, {:.3f})",
        i + 1, walking::to_string(step.foot), step.target.position.x(), step.target.position.y(),
        step.target.yaw, step.timing.double_support, step.timing.single_support,
        planned.steps[i].scaled_human.x(), planned.steps[i].scaled_human.y());
    for (const std::string& a : planned.steps[i].adjustments) spdlog::debug("  {}", a);
  }
  const walking::WalkSchedule schedule(planned.plan, description.right_sole, description.left_sole);
  spdlog::info(
      "whole body: {} of the clip's {} step(s) planned over {:.2f} s (time stretch {:.3f}), {} clamped",
      planned.steps.size(), contacts.step_count(), schedule.duration(), planned.time_stretch,
      std::count_if(planned.steps.begin(), planned.steps.end(),
                    [](const auto& s) { return !s.adjustments.empty(); }));
  timer.done("footstep plan");

  // Step 3: the walking pattern under the reference's upper body.
  const walking::WalkingOptions options = walking_options(job);
  check_sample_budget(job.input.string() + ": the whole-body walk", schedule.duration(),
                      1.0 / options.preview.cart.period, "stability.preview.period");
  spdlog::info("whole body: walking pattern ({:.2f} s at {:.0f} Hz)", schedule.duration(),
               1.0 / options.preview.cart.period);
  walking::WalkingPattern pattern;
  WalkUpperBodyReport upper;
  try {
    // The fit and its pattern; the arms' clearance from the legs is the solve's below (its pair rows).
    // Measured (README): 131_01, whose fit puts the left hand 7.5 cm into the left thigh, solves with 6 pairs
    // constrained and imitates the reference better than the former clearance rounds of the fit did (joint
    // RMSE 0.044 against 0.048 rad).
    WalkWithUpperBody walk = walk_with_upper_body(robot, reference, planned, schedule, options);
    pattern = std::move(walk.pattern);
    upper = walk.report;
  } catch (const InfeasibleError& e) {
    stage_failed(job, "walking pattern", e.what());
  }
  timer.done("walking pattern");

  // Step 3b: seed 000's problem on the walk (pipeline/whole_body_upper_body_solve.hpp), then the pattern
  // again under the solved upper body, whose mass moved (the legs and the waist carry it).
  UpperBodySolveReport upper_solve;
  {
    spdlog::info("whole body: solving the upper body on the walk ({} samples)", pattern.size());
    WalkUpperBodySolve solved;
    try {
      solved = solve_walk_upper_body(robot, job, reference, planned, pattern.motion,
                                     options.preview.cart.period, progress);
    } catch (const InfeasibleError& e) {
      stage_failed(job, "upper body (seed 000)", e.what());
    }
    if (!solved.success) stage_failed(job, "upper body (seed 000)", solved.failure);
    upper_solve = solved.report;
    timer.done("upper body solve");
    try {
      Eigen::MatrixXd joints = solved.joints.transpose();
      pattern = walking::generate_walking_pattern(
          model, description, schedule,
          walking::UpperBodyTrajectory::cubic(pattern.motion.times, std::move(joints)), options);
    } catch (const InfeasibleError& e) {
      stage_failed(job, "walking pattern (solved upper body)", e.what());
    }
  }
  const auto deepest = std::max_element(pattern.waist_lowering.begin(), pattern.waist_lowering.end());
  if (deepest != pattern.waist_lowering.end() && *deepest > 0.0) {
    spdlog::info(
        "whole body: the waist lowered by up to {:.3f} m (t = {:.2f} s) where the legs would not reach",
        *deepest, pattern.motion.times[static_cast<std::size_t>(deepest - pattern.waist_lowering.begin())]);
  }
  timer.done("walking pattern (solved upper body)");

  // Step 4: seed 001 on the legs and the waist.
  SmoothSettings settings = smooth_settings(job);
  settings.solver.alm.stationarity_tolerance =
      std::max(settings.solver.alm.stationarity_tolerance, kWalkStationarity);
  settings.solver.alm.max_outer_iterations =
      std::min(settings.solver.alm.max_outer_iterations, kWalkOuterIterations);
  if (job.solver.alm.penalty_schedule == "auto") settings.solver.alm.schedule = kWalkPenaltySchedule;
  settings.geometry.collision = robot.collision;
  spdlog::info("whole body: smoothing the legs and the waist ({} samples, torque objective)", pattern.size());
  if (spdlog::should_log(spdlog::level::debug)) {
    // The same verdict smooth_motion starts from, before its solve (which may take minutes or throw).
    evaluation::CheckOptions check;
    check.factors = settings.limits;
    check.collision = settings.geometry.collision;
    check.geometry.safety_distance = settings.geometry.safety_distance;
    log_violations("whole body: walking pattern",
                   evaluation::check_motion(model, robot.feet, pattern.motion, check));
  }
  SmoothResult smoothed;
  try {
    smoothed = smooth_motion(model, robot.feet, pattern.motion, settings, progress);
  } catch (const InfeasibleError& e) {
    stage_failed(job, "smoothing (seed 001)", e.what());
  }
  if (!smoothed.success) {
    log_violations("whole body: smoothed", smoothed.after);
    stage_failed(job, "smoothing (seed 001)", smoothed.failure);
  }
  result.optimized = true;
  result.solver = optim::to_string(job.solver.name);
  result.solver_status = smoothed.solve.reason.empty() ? smoothed.solve.summary() : smoothed.solve.reason;
  result.solver_iterations = smoothed.total_iterations;
  result.objective = smoothed.solve.objective;
  result.optimized_torque_integral = smoothed.optimized_torque_integral;
  result.stabilized = smoothed.stabilized;
  result.stabilization = smoothed.stabilization;
  timer.done("smoothing");

  // Step 5: what is written, and its check with the pattern's contacts (smooth_motion's own evaluation).
  result.output = smoothed.files;
  if (io::is_csv_motion(job.output.path)) {
    result.csv =
        csv_output(model, description.joint_order, smoothed.motion, job.csv_rate, job.output.path.string());
  }
  result.check = smoothed.after;
  result.check.imitation =
      imitation_errors(robot, reference, smoothed.motion, [&](double t) { return planned.robot_time_at(t); });
  WholeBodyReport report;
  measure(robot, contacts, planned, schedule, smoothed.motion, report);
  report.contacts = pattern.contact_intervals;
  report.upper_body = upper;
  report.upper_body_solve = upper_solve;
  report.torque_before = smoothed.before.torque_integral;
  report.torque_after = smoothed.after.torque_integral;
  report.solves = smoothed.solves;
  result.whole_body = std::move(report);
  timer.done("check");
  if (!result.check.ok()) {
    stage_failed(job, "check", evaluation::describe(result.check.violations.front()));
  }
}

}  // namespace mimic::pipeline
