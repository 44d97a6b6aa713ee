// A job (io::JobConfig, the schema of docs/job-yaml.md) as the options of the stages it runs: the one
// place that reads a job's settings for the modules below pipeline, which know nothing of the schema.
// Each function takes the keys its stage uses; docs/job-yaml.md says which command reads which key.
#pragma once

#include "mimic/evaluation/check.hpp"
#include "mimic/io/job.hpp"
#include "mimic/motion/geometry_constraints.hpp"
#include "mimic/motion/optimize_motion.hpp"
#include "mimic/optim/solver.hpp"
#include "mimic/pipeline/kinematic_retarget.hpp"
#include "mimic/pipeline/smooth.hpp"
#include "mimic/stability/zmp_stabilizer.hpp"
#include "mimic/walking/walking_pattern.hpp"

namespace mimic::pipeline {

// Wall-time budget of one stage's solves (a retarget's optimisation, a smoothing with its refinement
// rounds), s: past it the stage stops with the solver status "time limit" and, when the point is not
// feasible, exit code 4 naming the stage. Generous: the slowest shipped example (boxing.bvh with the
// torque objective, README) converges in about 600 s on a quiet 2-core machine.
inline constexpr double kSolverTimeBudget = 1800.0;

// solver.*: either back end's options. solver.max_iterations caps the ALM's outer iterations, each a
// whole inner solve; Ipopt, whose iterations are single Newton steps, gets 20 times as many. Both get the
// time budget kSolverTimeBudget.
optim::SolverOptions solver_options(const io::SolverSettings& solver);

// The kinematic retarget of a retarget job: mocap.*, retarget.{scale, velocity_limit_scale},
// limits.velocity_factor and trajectory.output_rate. Throws InputError for a bad mocap.units / up_axis.
KinematicRetargetOptions kinematic_retarget_options(const io::JobConfig& job);

// The upper-body optimisation of a retarget job: objective.*, limits.*, trajectory.knot_spacing, solver.*.
motion::MotionSettings motion_settings(const io::JobConfig& job);

// A retarget's ZMP correction: stability.{zmp_margin, max_iterations} (stability.enabled says whether
// it runs at all).
stability::StabilizerOptions stabilizer_options(const io::JobConfig& job);

// The smooth stage: limits.*, trajectory.knot_spacing, solver.*, stability.{enabled, zmp_margin,
// max_iterations}.
SmoothSettings smooth_settings(const io::JobConfig& job);

// The walking pattern generator: stability.preview.{q, r, horizon, period}. A walk is written at its
// control period, so trajectory.output_rate must be 1 / stability.preview.period: InputError otherwise.
walking::WalkingOptions walking_options(const io::JobConfig& job);

// The geometry constraints of both problems: geometry.{safety_distance, max_swing_tilt}. The collision
// model is left null: the stages fill it from their pipeline::Robot.
motion::GeometryConstraintOptions geometry_options(const io::JobConfig& job);

// The check a job asks for (`mimic check --config`): limits.*, stability.zmp_margin and
// geometry.safety_distance. The collision model is left null, as in geometry_options.
evaluation::CheckOptions check_options(const io::JobConfig& job);

}  // namespace mimic::pipeline
