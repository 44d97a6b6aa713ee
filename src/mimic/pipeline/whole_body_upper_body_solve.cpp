#include "mimic/pipeline/whole_body_upper_body_solve.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <ctime>

#include "mimic/model/limits.hpp"
#include "mimic/motion/active_joints.hpp"
#include "mimic/motion/optimize_motion.hpp"
#include "mimic/pipeline/imitation_errors.hpp"
#include "mimic/pipeline/job_options.hpp"
#include "mimic/pipeline/reports.hpp"

namespace mimic::pipeline {

Eigen::MatrixXd end_effector_targets_on_walk(const retarget::ReferenceMotion& reference,
                                             const ClipFootstepPlan& planned,
                                             const std::vector<double>& walk_times) {
  const auto n = static_cast<Eigen::Index>(walk_times.size());
  const Eigen::Index last = reference.end_effectors.cols() - 1;
  Eigen::MatrixXd targets(reference.end_effectors.rows(), n);
  for (Eigen::Index k = 0; k < n; ++k) {
    const double s =
        std::clamp(planned.robot_time_at(walk_times[static_cast<std::size_t>(k)]) * reference.rate, 0.0,
                   static_cast<double>(last));
    const auto below =
        std::min<Eigen::Index>(static_cast<Eigen::Index>(std::floor(s)), std::max<Eigen::Index>(last - 1, 0));
    const double w = last > 0 ? s - static_cast<double>(below) : 0.0;
    targets.col(k) = (1.0 - w) * reference.end_effectors.col(below) +
                     w * reference.end_effectors.col(std::min(below + 1, last));
  }
  return targets;
}

WalkUpperBodySolve solve_walk_upper_body(const Robot& robot, const io::JobConfig& job,
                                         const retarget::ReferenceMotion& reference,
                                         const ClipFootstepPlan& planned, const model::SampledMotion& walk,
                                         double period, const ProgressCallback& progress) {
  const std::clock_t cpu_start = std::clock();
  const model::Model& model = robot.model;
  motion::MotionSettings settings = motion_settings(job);
  settings.geometry.collision = robot.collision;
  const model::ScaledLimits limits = model::scaled_limits(model, settings.limits);

  motion::MotionInput input;
  input.rate = 1.0 / period;
  input.motion = walk;
  // The fit is bent onto the joints' ranges; the problem's bounds are the job's factored ranges, and its
  // pinned ends must lie within them (optimize_motion refuses them otherwise). Only the imitated joints'
  // targets are moved: the passive joints' rates stay the walk's.
  for (const int j : motion::active_joint_indices(model, robot.description)) {
    auto row = input.motion.q.row(model.idx_q(j));
    row = row.cwiseMax(limits.lower[j]).cwiseMin(limits.upper[j]);
  }
  input.end_effectors = end_effector_targets_on_walk(reference, planned, walk.times);

  const motion::MotionResult solved =
      motion::optimize_motion(model, robot.description, input, settings, progress);

  WalkUpperBodySolve out;
  out.success = solved.success;
  out.failure = solved.failure;
  out.joints = solved.joints;
  UpperBodySolveReport& r = out.report;
  r.solves = solved.solves;
  r.iterations = solved.total_iterations;
  r.solver_seconds = solved.total_seconds;
  r.torque_samples = solved.torque_samples;
  r.collision_pairs = solved.collision_pairs;
  r.peak_torque = solved.metrics.torque.ratio;
  r.peak_torque_joint = solved.metrics.torque.joint;
  r.min_distance = solved.metrics.min_distance;
  r.closest_pair = solved.metrics.closest_pair;
  r.deep_runs = solved.reference_clearance.runs;
  r.end_shift = solved.end_shift;
  // Both against the kinematic reference as captured, on the walk's clock (the fit's numbers are what the
  // pattern's upper body imitated before this step).
  const auto reference_time = [&](double t) { return planned.robot_time_at(t); };
  const evaluation::ImitationErrors fit = imitation_errors(robot, reference, walk, reference_time);
  r.joint_rmse_fit = fit.joint_rmse;
  r.position_rms_fit = fit.position_rms;
  if (solved.joints.cols() == walk.size()) {
    model::SampledMotion motion = walk;
    motion.q.bottomRows(model.nj) = solved.joints;
    const evaluation::ImitationErrors after = imitation_errors(robot, reference, motion, reference_time);
    r.joint_rmse = after.joint_rmse;
    r.position_rms = after.position_rms;
  }
  r.cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  spdlog::info(
      "whole body: upper body solved on the walk: {} solve(s), {} iterations, {:.2f} s; joint RMSE {:.4f} "
      "-> {:.4f} rad, head/hand RMS {:.4f} -> {:.4f} m against the reference; peak |tau|/limit {:.3f} ({}), "
      "{} ({} pairs constrained)",
      r.solves, r.iterations, r.solver_seconds, r.joint_rmse_fit, r.joint_rmse, r.position_rms_fit,
      r.position_rms, r.peak_torque, r.peak_torque_joint,
      describe_closest_pair(r.closest_pair, r.min_distance), r.collision_pairs);
  return out;
}

}  // namespace mimic::pipeline
