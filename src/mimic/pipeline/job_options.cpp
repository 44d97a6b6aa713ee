#include "mimic/pipeline/job_options.hpp"

#include <cmath>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"

namespace mimic::pipeline {

optim::SolverOptions solver_options(const io::SolverSettings& s) {
  optim::SolverOptions o;
  o.backend = s.name;
  o.threads = s.threads;
  o.alm.feasibility_tolerance = s.constraint_tolerance;
  o.alm.stationarity_tolerance = s.tolerance;
  o.alm.max_outer_iterations = s.max_iterations;
  o.alm.initial_penalty = s.alm.penalty_initial;
  o.alm.penalty_growth = s.alm.penalty_growth;
  o.alm.max_penalty = s.alm.penalty_max;
  // "auto" is the seed's here; the problems that need the adaptive one set it (motion_settings below, the
  // whole-body walk's smoothing) when the job leaves it to them.
  o.alm.schedule = s.alm.penalty_schedule == "adaptive" ? optim::PenaltySchedule::kAdaptive
                                                        : optim::PenaltySchedule::kSeed;
  o.alm.max_seconds = kSolverTimeBudget;
  o.ipopt.max_seconds = kSolverTimeBudget;
  o.ipopt.feasibility_tolerance = s.constraint_tolerance;
  o.ipopt.stationarity_tolerance = s.tolerance;
  o.ipopt.max_iterations = 20 * s.max_iterations;
  // Exact for the least-squares objectives under the linear angle / velocity constraints; it leaves out
  // only the curvature of the torque and support constraints, small at the few active rows.
  o.ipopt.hessian = optim::IpoptOptions::Hessian::kGaussNewton;
  o.ipopt.verbose = s.ipopt.print_level > 0;
  if (s.ipopt.print_level > 0) o.ipopt.integer_options["print_level"] = s.ipopt.print_level;
  o.ipopt.string_options["linear_solver"] = s.ipopt.linear_solver;
  return o;
}

KinematicRetargetOptions kinematic_retarget_options(const io::JobConfig& job) {
  KinematicRetargetOptions options;
  options.preset = job.mocap.preset == "auto" ? std::string() : job.mocap.preset;
  options.load.unit = mocap::parse_unit_option(job.mocap.units, "mocap.units");
  options.load.up = mocap::parse_up_option(job.mocap.up_axis, "mocap.up_axis");
  options.load.max_gap_frames = job.mocap.gap_fill_frames;
  if (job.retarget.scale) options.retarget.scale = *job.retarget.scale;
  options.retarget.scale_from_height = job.retarget.scale_from_height;
  // Algorithm 1 keeps the reference below the velocity limits scaled by both factors.
  options.velocity_scale = job.retarget.velocity_limit_scale * job.limits.velocity_factor;
  options.output_rate = job.trajectory.output_rate;
  return options;
}

motion::MotionSettings motion_settings(const io::JobConfig& job) {
  motion::MotionSettings settings;
  settings.objective = job.objective.kind == io::ObjectiveKind::kTorque ? motion::Objective::kTorque
                                                                        : motion::Objective::kImitation;
  settings.sigma = job.objective.sigma;
  settings.torque_weight = job.objective.torque_weight;
  settings.limits = job.limits;
  settings.knot_spacing = job.trajectory.knot_spacing;
  settings.solver = solver_options(job.solver);
  // The torque objective's residuals stay large (gravity): Gauss-Newton converges linearly on it. By default
  // (solver.alm.newton_steps) its steps are Newton steps with the torques' exact second-order term
  // (dynamics/rnea_second_order.hpp), evaluated every 10 accepted steps; from the reference they ended in
  // poor local minima (boxing 141.5 against 78.2), from the least-torque start that optimize_motion now
  // takes (motion/torque_objective_start.hpp) in a lower one than any before (README). Without them the
  // steps are sized by the secant curvature. The imitation's small residuals need neither.
  const bool torque = settings.objective == motion::Objective::kTorque;
  settings.solver.alm.residual_sizing = torque;
  settings.solver.alm.residual_curvature = torque && job.solver.alm.newton_steps;
  settings.solver.alm.residual_curvature_refresh = 10;
  // On the whole boxing clip the seed's schedule raises the penalty tenfold per outer iteration while the
  // objective still falls; at its cap (1e8) every inner solve crawls to its 100-step cap. The adaptive one
  // raises it only when the violation did not fall fourfold (unless solver.alm.penalty_schedule names one),
  // and the integral is the rectangle rule on every 10th sample (MotionSettings::torque_objective_stride):
  // 603 -> 269 s CPU and a lower minimum, dense integral 156.4 -> 134.3 (bench/motion.cpp,
  // BM_TorqueObjective; README).
  if (torque) {
    if (job.solver.alm.penalty_schedule == "auto")
      settings.solver.alm.schedule = optim::PenaltySchedule::kAdaptive;
    settings.torque_objective_stride = 10;
  }
  settings.geometry = geometry_options(job);
  return settings;
}

stability::StabilizerOptions stabilizer_options(const io::JobConfig& job) {
  stability::StabilizerOptions options;
  options.margin = job.stability.zmp_margin;
  options.max_iterations = job.stability.max_iterations;
  return options;
}

SmoothSettings smooth_settings(const io::JobConfig& job) {
  SmoothSettings settings;
  settings.limits = job.limits;
  settings.knot_spacing = job.trajectory.knot_spacing;
  settings.solver = solver_options(job.solver);
  settings.stabilize = job.stability.enabled;
  settings.zmp_margin = job.stability.zmp_margin;
  settings.stabilizer_iterations = job.stability.max_iterations;
  settings.geometry = geometry_options(job);
  return settings;
}

walking::WalkingOptions walking_options(const io::JobConfig& job) {
  const io::PreviewSettings& preview = job.stability.preview;
  if (std::abs(job.trajectory.output_rate * preview.period - 1.0) > 1e-9) {
    throw InputError(input_error_message(
        job.source.empty() ? "command line" : job.source.string(), "trajectory.output_rate",
        "a walking pattern is written at its control period: expected 1 / stability.preview.period = " +
            core::format_number(1.0 / preview.period) + " Hz, found " +
            core::format_number(job.trajectory.output_rate)));
  }
  walking::WalkingOptions options;
  options.preview.cart.period = preview.period;
  options.preview.preview_time = preview.horizon;
  options.preview.error_weight = preview.q;
  options.preview.jerk_weight = preview.r;
  return options;
}

motion::GeometryConstraintOptions geometry_options(const io::JobConfig& job) {
  motion::GeometryConstraintOptions options;
  options.safety_distance = job.geometry.safety_distance;
  options.max_swing_tilt = job.geometry.max_swing_tilt;
  return options;
}

evaluation::CheckOptions check_options(const io::JobConfig& job) {
  evaluation::CheckOptions options;
  options.factors = job.limits;
  options.zmp_margin = job.stability.zmp_margin;
  options.geometry.safety_distance = job.geometry.safety_distance;
  return options;
}

}  // namespace mimic::pipeline
