// pipeline/job_options: every job key a stage reads reaches that stage's options, and the preview weights
// of a walk job change the walk.
#include "mimic/pipeline/job_options.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/pipeline/robot.hpp"
#include "mimic/walking/footsteps.hpp"

namespace mimic::pipeline {
namespace {

// A job whose every key differs from its default (so that a key read into the wrong option, or not read,
// shows).
io::JobConfig changed_job(io::JobKind kind) {
  return io::parse_job(R"(job: )" + std::string(io::to_string(kind)) + R"(
input: )" +
                           (kind == io::JobKind::kRetarget ? "a.bvh"
                            : kind == io::JobKind::kSmooth ? "a.pos"
                                                           : "a.yaml") +
                           R"(
output: b.pos
mocap: { units: mm, up_axis: +y, preset: cmu_asf, gap_fill_frames: 3 }
retarget: { scale: 0.9, velocity_limit_scale: 0.7 }
objective: { kind: torque, sigma: 0.3 }
limits: { angle_factor: 0.9, velocity_factor: 0.8, torque_factor: 0.7 }
trajectory: { knot_spacing: 0.05, output_rate: 100 }
solver:
  name: ipopt
  max_iterations: 7
  tolerance: 1.0e-7
  constraint_tolerance: 1.0e-5
  alm: { penalty_initial: 2, penalty_growth: 6, penalty_max: 4, penalty_schedule: adaptive, newton_steps: true }
  ipopt: { linear_solver: ma27, print_level: 3 }
stability: { enabled: false, zmp_margin: 0.01, max_iterations: 2 }
geometry: { safety_distance: 0.02, max_swing_tilt: 0.5 }
)",
                       "/jobs/j.yaml");
}

void expect_limits(const model::LimitFactors& f) {
  EXPECT_EQ(f.angle_factor, 0.9);
  EXPECT_EQ(f.velocity_factor, 0.8);
  EXPECT_EQ(f.torque_factor, 0.7);
}

TEST(JobOptions, SolverKeysReachBothBackEnds) {
  const optim::SolverOptions o = solver_options(changed_job(io::JobKind::kSmooth).solver);
  EXPECT_EQ(o.backend, optim::Backend::kIpopt);
  EXPECT_EQ(o.alm.max_outer_iterations, 7);
  EXPECT_EQ(o.alm.stationarity_tolerance, 1e-7);
  EXPECT_EQ(o.alm.feasibility_tolerance, 1e-5);
  EXPECT_EQ(o.alm.initial_penalty, 2.0);
  EXPECT_EQ(o.alm.penalty_growth, 6.0);
  EXPECT_EQ(o.alm.max_penalty, 4.0);
  EXPECT_EQ(o.alm.schedule, optim::PenaltySchedule::kAdaptive);
  EXPECT_EQ(o.ipopt.max_iterations, 140);  // 20 Newton steps per allowed outer iteration
  EXPECT_EQ(o.ipopt.stationarity_tolerance, 1e-7);
  EXPECT_EQ(o.ipopt.feasibility_tolerance, 1e-5);
  EXPECT_EQ(o.ipopt.hessian, optim::IpoptOptions::Hessian::kGaussNewton);
  EXPECT_TRUE(o.ipopt.verbose);
  EXPECT_EQ(o.ipopt.integer_options.at("print_level"), 3);
  EXPECT_EQ(o.ipopt.string_options.at("linear_solver"), "ma27");

  // The defaults: the ALM on the seed's schedule, Ipopt quiet.
  const optim::SolverOptions d = solver_options(io::default_job(io::JobKind::kSmooth).solver);
  EXPECT_EQ(d.backend, optim::Backend::kAugmentedLagrangian);
  EXPECT_EQ(d.alm.schedule, optim::PenaltySchedule::kSeed);
  EXPECT_EQ(d.alm.max_outer_iterations, 100);
  EXPECT_FALSE(d.ipopt.verbose);
  EXPECT_FALSE(d.ipopt.integer_options.contains("print_level"));
}

TEST(JobOptions, RetargetKeysReachTheKinematicRetargetTheOptimisationAndTheZmpCorrection) {
  const io::JobConfig job = changed_job(io::JobKind::kRetarget);
  const KinematicRetargetOptions kinematic = kinematic_retarget_options(job);
  EXPECT_EQ(kinematic.preset, "cmu_asf");
  EXPECT_EQ(kinematic.load.unit, mocap::LengthUnit::kMillimetre);
  EXPECT_EQ(kinematic.load.up, (mocap::Axis{1, 1}));
  EXPECT_EQ(kinematic.load.max_gap_frames, 3);
  EXPECT_EQ(kinematic.retarget.scale, 0.9);
  EXPECT_FALSE(kinematic.retarget.scale_from_height);
  EXPECT_DOUBLE_EQ(kinematic.velocity_scale, 0.7 * 0.8);  // retarget.velocity_limit_scale x velocity_factor
  EXPECT_EQ(kinematic.output_rate, 100.0);
  EXPECT_TRUE(kinematic_retarget_options(io::default_job(io::JobKind::kRetarget)).preset.empty());  // auto

  const motion::MotionSettings motion = motion_settings(job);
  EXPECT_EQ(motion.objective, motion::Objective::kTorque);
  EXPECT_EQ(motion.sigma, 0.3);
  expect_limits(motion.limits);
  EXPECT_EQ(motion.knot_spacing, 0.05);
  EXPECT_EQ(motion.solver.backend, optim::Backend::kIpopt);
  EXPECT_EQ(motion.geometry.safety_distance, 0.02);
  EXPECT_EQ(motion_settings(io::default_job(io::JobKind::kRetarget)).objective,
            motion::Objective::kImitation);
  // The torque objective takes Newton steps with the residuals' curvature every 10 steps unless
  // solver.alm.newton_steps is false (the default is true), then sized Gauss-Newton steps
  // (optim/alm_subproblem.hpp); the imitation neither.
  EXPECT_TRUE(motion.solver.alm.residual_sizing);
  EXPECT_TRUE(motion.solver.alm.residual_curvature);
  EXPECT_EQ(motion.solver.alm.residual_curvature_refresh, 10);
  io::JobConfig sized = job;
  sized.solver.alm.newton_steps = false;
  EXPECT_FALSE(motion_settings(sized).solver.alm.residual_curvature);
  EXPECT_TRUE(io::default_job(io::JobKind::kRetarget).solver.alm.newton_steps);
  const motion::MotionSettings imitation = motion_settings(io::default_job(io::JobKind::kRetarget));
  EXPECT_FALSE(imitation.solver.alm.residual_sizing);
  EXPECT_FALSE(imitation.solver.alm.residual_curvature);
  // The torque objective: the adaptive penalty schedule when solver.alm.penalty_schedule is auto (the
  // default) or adaptive, the seed's when the job names it, and its integral on every 10th sample
  // (job_options.cpp says why); the imitation keeps the seed's schedule under auto and the dense integral.
  EXPECT_EQ(motion.solver.alm.schedule, optim::PenaltySchedule::kAdaptive);
  io::JobConfig auto_schedule = job;
  auto_schedule.solver.alm.penalty_schedule = "auto";
  EXPECT_EQ(motion_settings(auto_schedule).solver.alm.schedule, optim::PenaltySchedule::kAdaptive);
  io::JobConfig seed_schedule = job;
  seed_schedule.solver.alm.penalty_schedule = "seed";
  EXPECT_EQ(motion_settings(seed_schedule).solver.alm.schedule, optim::PenaltySchedule::kSeed);
  EXPECT_EQ(io::default_job(io::JobKind::kRetarget).solver.alm.penalty_schedule, "auto");
  EXPECT_EQ(motion.torque_objective_stride, 10);
  EXPECT_EQ(imitation.solver.alm.schedule, optim::PenaltySchedule::kSeed);
  EXPECT_EQ(imitation.torque_objective_stride, 1);
  io::JobConfig imitation_newton = io::default_job(io::JobKind::kRetarget);
  imitation_newton.solver.alm.newton_steps = true;
  EXPECT_FALSE(motion_settings(imitation_newton).solver.alm.residual_curvature);

  const stability::StabilizerOptions stabilizer = stabilizer_options(job);
  EXPECT_EQ(stabilizer.margin, 0.01);
  EXPECT_EQ(stabilizer.max_iterations, 2);
}

TEST(JobOptions, SmoothAndCheckKeysReachTheirStages) {
  const io::JobConfig job = changed_job(io::JobKind::kSmooth);
  const SmoothSettings smooth = smooth_settings(job);
  expect_limits(smooth.limits);
  EXPECT_EQ(smooth.knot_spacing, 0.05);
  EXPECT_EQ(smooth.solver.backend, optim::Backend::kIpopt);
  EXPECT_EQ(smooth.solver.alm.max_outer_iterations, 7);
  EXPECT_FALSE(smooth.stabilize);
  EXPECT_EQ(smooth.zmp_margin, 0.01);
  EXPECT_EQ(smooth.stabilizer_iterations, 2);
  EXPECT_EQ(smooth.geometry.safety_distance, 0.02);
  EXPECT_EQ(smooth.geometry.max_swing_tilt, 0.5);

  const evaluation::CheckOptions check = check_options(job);
  expect_limits(check.factors);
  EXPECT_EQ(check.zmp_margin, 0.01);
  EXPECT_EQ(check.geometry.safety_distance, 0.02);
  EXPECT_FALSE(check.collision);  // the stage's robot fills it
}

TEST(JobOptions, GeometryKeysReachTheConstraintOptions) {
  for (const io::JobKind kind : {io::JobKind::kRetarget, io::JobKind::kSmooth}) {
    const motion::GeometryConstraintOptions geometry = geometry_options(changed_job(kind));
    EXPECT_EQ(geometry.safety_distance, 0.02);
    EXPECT_EQ(geometry.max_swing_tilt, 0.5);
    EXPECT_FALSE(geometry.collision);  // the stage's robot fills it
  }
}

TEST(JobOptions, WalkIsWrittenAtItsControlPeriod) {
  io::JobConfig job = io::default_job(io::JobKind::kWalk);
  const walking::WalkingOptions defaults = walking_options(job);  // 200 Hz, 5 ms: consistent
  EXPECT_EQ(defaults.preview.cart.period, 0.005);
  job.trajectory.output_rate = 100.0;
  try {
    walking_options(job);
    FAIL() << "a 100 Hz walk with a 5 ms controller was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("trajectory.output_rate"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("expected 1 / stability.preview.period = 200 Hz, found 100"),
              std::string::npos)
        << e.what();
  }
}

// stability.preview.{q, r, horizon, period} reach the preview controller, and a different error weight Q
// gives a different walk: with Q / R lowered from 1e6 (Kajita 2003 section III) to 1e2, the cart's CoM
// tracks the ZMP reference more loosely and the multibody ZMP of the walk strays further from it.
TEST(JobOptions, PreviewWeightsChangeTheWalk) {
  io::JobConfig job = io::parse_job(R"(job: walk
input: steps.yaml
output: walk.pos
trajectory: { output_rate: 100 }
stability:
  preview: { q: 2.0, r: 1.0e-5, horizon: 1.2, period: 0.01 }
)",
                                    "/jobs/walk.yaml");
  const walking::WalkingOptions options = walking_options(job);
  EXPECT_EQ(options.preview.error_weight, 2.0);
  EXPECT_EQ(options.preview.jerk_weight, 1e-5);
  EXPECT_EQ(options.preview.preview_time, 1.2);
  EXPECT_EQ(options.preview.cart.period, 0.01);

  // Two steps, at the shipped job's 5 ms, with Q = 1 (Kajita's) and Q = 100.
  const Robot robot = load_robot(io::RobotSettings{});
  const walking::FootstepPlan plan = walking::parse_footsteps(R"(initial_stance:
  right: { position: [0.00949, -0.095] }
  left: { position: [0.00949, 0.095] }
timing: { single_support: 0.8, double_support: 0.2 }
initial_hold: 1.0
final_hold: 1.0
steps:
  - { foot: right, displacement: [0.15, 0.0] }
  - { foot: left, displacement: [0.15, 0.0] }
)",
                                                              "steps.yaml");
  const walking::WalkSchedule schedule(plan, robot.description.right_sole, robot.description.left_sole);
  const auto upper_body =
      walking::UpperBodyTrajectory::fixed(robot.description.nominal_q(robot.model).tail(robot.model.nj));
  const auto walk = [&](double q) {
    io::JobConfig walk_job = io::default_job(io::JobKind::kWalk);
    walk_job.stability.preview.q = q;
    return walking::generate_walking_pattern(robot.model, robot.description, schedule, upper_body,
                                             walking_options(walk_job));
  };
  const walking::WalkingPattern kajita = walk(1.0), loose = walk(1e-4);
  ASSERT_EQ(kajita.size(), loose.size());
  const double com_change = (kajita.com.leftCols(2) - loose.com.leftCols(2)).rowwise().norm().maxCoeff();
  const auto zmp_error = [](const walking::WalkingPattern& p) {
    return (p.zmp.leftCols(2) - p.zmp_reference.leftCols(2)).rowwise().norm().maxCoeff();
  };
  std::printf("CoM change %.3g m; ZMP error Q = 1: %.3g m, Q = 1e-4: %.3g m\n", com_change, zmp_error(kajita),
              zmp_error(loose));
  // Measured: the CoM moves by 0.2 mm, the ZMP error grows from 1.8 to 5.1 mm.
  EXPECT_GT(com_change, 1e-4);
  EXPECT_GT(zmp_error(loose), 2.0 * zmp_error(kajita));
}

}  // namespace
}  // namespace mimic::pipeline
