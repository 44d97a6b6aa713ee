#include "mimic/pipeline/motion_optimization.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "mimic/motion/optimize_motion.hpp"
#include "mimic/pipeline/job_options.hpp"
#include "mimic/pipeline/reports.hpp"

namespace mimic::pipeline {

OptimizedUpperBody optimize_upper_body(const Robot& robot, const io::JobConfig& job,
                                       const retarget::ReferenceMotion& reference,
                                       const ProgressCallback& progress) {
  motion::MotionInput input;
  input.rate = reference.rate;
  input.motion = reference.motion;
  input.end_effectors = reference.end_effectors;
  // The legs and grippers are passive: they follow the reference sample by sample (legs planted by
  // plant_feet, grippers at half-sitting). The ZMP stage moves the legs afterwards.

  // The job's geometry keys (safety distance) come through motion_settings; the shapes are the robot's.
  motion::MotionSettings settings = motion_settings(job);
  settings.geometry.collision = robot.collision;
  const motion::MotionResult result =
      motion::optimize_motion(robot.model, robot.description, input, settings, progress);
  motion::require_success(result);
  if (const std::string warning = short_of_optimum_warning(result.solve, "optimised motion");
      !warning.empty())
    spdlog::warn("{}", warning);
  spdlog::info(
      "optimisation: {} solve(s), {} iterations, {:.2f} s; joint RMSE {:.4f} rad, head/hand RMS {:.4f} m; "
      "{} ({} pairs constrained)",
      result.solves, result.total_iterations, result.total_seconds, result.metrics.imitation.joint_rmse,
      result.metrics.imitation.position_rms,
      describe_closest_pair(result.metrics.closest_pair, result.metrics.min_distance),
      result.collision_pairs);

  if (const motion::ReferenceClearance& c = result.reference_clearance; c.runs > 0) {
    spdlog::warn(
        "optimisation: the reference goes {:.4f} m deep into {} at t={:.3f} s, where the distance gives no "
        "direction; {} run(s) of {} samples were moved out of the safety distance first (active joints by "
        "up to {:.4f} rad; closest pair {:.4f} m{})",
        c.deepest, robot.collision->pair_name(c.deepest_pair), c.deepest_sample / reference.rate, c.runs,
        c.samples, c.shift, c.min_distance,
        c.uncleared > 0 ? fmt::format(", {} samples still inside", c.uncleared) : std::string());
  }
  if (result.end_shift > 0.0) {
    spdlog::warn(
        "optimisation: the clip starts or ends inside the safety distance; its pinned end pose was moved "
        "out of it (active joints by up to {:.4f} rad)",
        result.end_shift);
  }

  OptimizedUpperBody out;
  out.joints = result.joints;
  out.status = result.solve.reason.empty() ? result.solve.summary() : result.solve.reason;
  out.iterations = result.total_iterations;
  out.objective = result.solve.objective;
  out.torque_integral = result.metrics.active_torque_integral;
  return out;
}

}  // namespace mimic::pipeline
