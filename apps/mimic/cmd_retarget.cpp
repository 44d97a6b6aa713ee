// `mimic retarget IN.{bvh,c3d} -o OUT.pos`: the pipeline of seed 000 (pipeline/retarget_pipeline.hpp) —
// landmarks, kinematic retarget, Algorithm 1 re-timing, B-spline optimisation of the upper body, ZMP /
// cart-table correction with leg IK — writing OUT.pos, OUT.waist and OUT.zmp and printing a summary.
// Every setting comes from a job YAML (--config) or its defaults; command-line options override it.
#include <spdlog/spdlog.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "command.hpp"
#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/io/job.hpp"
#include "mimic/io/json.hpp"
#include "mimic/io/motion_files.hpp"
#include "mimic/io/output_paths.hpp"
#include "mimic/pipeline/csv_motion.hpp"
#include "mimic/pipeline/reference_files.hpp"
#include "mimic/pipeline/reports.hpp"
#include "mimic/pipeline/retarget_pipeline.hpp"
#include "progress_log.hpp"
#include "rate_option.hpp"
#include "robot_option.hpp"
#include "robot_options.hpp"

namespace {

using namespace mimic;

struct RetargetCommandOptions {
  std::string input, output, config, report, preset, units, up, objective, solver;
  app::RobotOption robot;
  std::string scale;  // auto | height | a number > 0; empty: the job's
  std::optional<double> velocity_scale, sigma, torque_weight, knot_spacing, zmp_margin, rate;
  std::optional<double> angle_factor, velocity_factor, torque_factor;
  std::optional<int> columns, max_iterations, threads;
  bool kinematic_only = false, no_stability = false, save_reference = false;
  bool whole_body = false, upper_body_only = false;
};

io::JobConfig assemble_job(const RetargetCommandOptions& o) {
  io::JobConfig job = o.config.empty() ? io::default_job(io::JobKind::kRetarget) : io::load_job(o.config);
  if (job.job != io::JobKind::kRetarget) {
    throw InputError(input_error_message(
        o.config, "",
        "job: expected retarget for `mimic retarget`, found " + std::string(io::to_string(job.job))));
  }
  if (!o.input.empty()) job.input = o.input;
  if (!o.output.empty()) job.output.path = o.output;
  if (!o.report.empty()) job.output.report = o.report;
  if (o.columns) job.output.columns = *o.columns;
  if (!o.preset.empty()) job.mocap.preset = o.preset;
  if (!o.units.empty()) job.mocap.units = o.units;
  if (!o.up.empty()) job.mocap.up_axis = o.up;
  app::apply_robot_option(o.robot, job.robot);
  if (o.columns) app::check_columns_option(*o.columns, job.robot);  // a bad command line first (exit 2)
  if (!o.scale.empty()) {
    // Replaces the job's setting whichever form either takes (validate_job rejects a number with height);
    // the option's validator has checked that anything but the two keywords is a number > 0.
    job.retarget.scale_from_height = o.scale == "height";
    job.retarget.scale.reset();
    if (o.scale != "auto" && o.scale != "height") job.retarget.scale = core::parse_number(o.scale).value;
  }
  if (o.velocity_scale) job.retarget.velocity_limit_scale = *o.velocity_scale;
  if (o.kinematic_only) job.retarget.kinematic_only = true;
  if (o.whole_body) job.retarget.mode = io::RetargetMode::kWholeBody;
  if (o.upper_body_only) job.retarget.mode = io::RetargetMode::kUpperBody;
  if (!o.objective.empty()) job.objective.kind = io::parse_objective_kind(o.objective, "--objective");
  if (o.sigma) job.objective.sigma = *o.sigma;
  if (o.torque_weight) job.objective.torque_weight = *o.torque_weight;
  if (o.angle_factor) job.limits.angle_factor = *o.angle_factor;
  if (o.velocity_factor) job.limits.velocity_factor = *o.velocity_factor;
  if (o.torque_factor) job.limits.torque_factor = *o.torque_factor;
  if (o.knot_spacing) job.trajectory.knot_spacing = *o.knot_spacing;
  if (!o.solver.empty()) job.solver.name = io::parse_backend(o.solver, "--solver");
  if (o.max_iterations) job.solver.max_iterations = *o.max_iterations;
  if (o.threads) job.solver.threads = *o.threads;
  if (o.no_stability) job.stability.enabled = false;
  if (o.zmp_margin) job.stability.zmp_margin = *o.zmp_margin;
  if (o.rate) job.csv_rate = *o.rate;
  if (job.input.empty())
    throw InputError("mimic retarget: no input clip (give IN.bvh / IN.c3d or a --config with input:)");
  if (job.output.path.empty())
    throw InputError("mimic retarget: no output (give -o OUT.pos or a --config with output.path)");
  io::validate_job(job);
  // --save-reference also writes OUT.reference.* and OUT.original.* (pipeline/reference_files.hpp).
  std::vector<io::CommandFile> extra_outputs;
  if (o.save_reference) {
    const std::string base = pipeline::motion_base_name(job.output.path).string();
    for (const std::string kind : {"reference", "original"}) {
      for (io::CommandFile& file : io::motion_file_set(base + "." + kind, "the " + kind + " motion"))
        extra_outputs.push_back(std::move(file));
    }
  }
  io::check_job_output_paths(job, {}, std::move(extra_outputs));
  return job;
}

int run_retarget(const RetargetCommandOptions& o) {
  const io::JobConfig job = assemble_job(o);
  spdlog::info("retarget {} -> {} ({})", job.input.string(), job.output.path.string(),
               job.retarget.kinematic_only ? "kinematic only"
                                           : std::string(io::to_string(job.objective.kind)) + " objective, " +
                                                 std::string(optim::to_string(job.solver.name)));
  const pipeline::RetargetPipelineResult result =
      pipeline::run_retarget_pipeline(job, app::progress_logger());
  // All outputs or none.
  io::write_report_with_outputs(job.output.report, pipeline::retarget_report_json(job, result),
                                [&] { pipeline::write_retarget_outputs(job, result); });
  if (o.save_reference)
    pipeline::write_reference_files(job.output.path, result.reference_files, job.output.columns);
  std::cout << pipeline::format_retarget_summary(result);
  if (result.csv)
    std::cout << "wrote " << pipeline::csv_output_summary(job.output.path, *result.csv);
  else
    std::cout << "wrote " << job.output.path.string() << " (+ .waist, .zmp)";
  if (o.save_reference) std::cout << ", .reference.pos and .original.pos";
  if (!job.output.report.empty()) std::cout << ", report " << job.output.report.string();
  std::cout << '\n';
  return app::kOk;
}

std::function<int()> setup_retarget(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "retarget",
      "Retarget a human motion capture (BVH skeleton or C3D markers) onto HRP-2 (seed 000): landmarks, "
      "per-frame upper-body IK, Algorithm 1 re-timing within the velocity limits, quartic B-spline "
      "optimisation of the upper body (imitation or torque objective; angle, velocity and torque limits), "
      "ZMP correction with the cart-table model and leg IK. Writes OUT.pos, OUT.waist and OUT.zmp (200 Hz, "
      "OpenHRP formats) and prints durations, imitation errors, peak velocity / torque ratios, the minimum "
      "ZMP margin, time per stage and the solver status. Settings come from --config JOB.yaml (see "
      "docs/job-yaml.md) or the defaults; options below override them. Exit codes: 3 bad input, 4 the "
      "result would violate a limit (nothing written).");
  auto o = std::make_shared<RetargetCommandOptions>();
  cmd->add_option("input", o->input, "Motion capture file (.bvh or .c3d); default: the job's input");
  cmd->add_option("-o,--output", o->output,
                  "Output OUT.pos (OUT.waist and OUT.zmp are written beside it) or OUT.csv (Unitree / LAFAN1 "
                  "convention, at --rate)");
  app::add_rate_option(cmd, o->rate,
                       "a .csv output (default: the job's csv_rate, else trajectory.output_rate)");
  // No CLI::ExistingFile check: a missing job file is bad input (exit 3, as for `smooth`, `walk` and
  // `check`), reported by load_job, not a bad command line (exit 2).
  cmd->add_option("-c,--config", o->config,
                  "Job YAML (job: retarget); its relative paths are resolved against its folder");
  cmd->add_option("--report", o->report, "Also write the summary as JSON to this file");
  cmd->add_flag(
      "--kinematic-only", o->kinematic_only,
      "Stop after the kinematic retarget and re-timing: no optimisation, no ZMP correction (a baseline)");
  auto* whole_body = cmd->add_flag(
      "--whole-body", o->whole_body,
      "Whole-body retarget: the robot walks the clip's footsteps (scaled and clamped to its reach) with the "
      "walking pattern generator carrying the kinematic upper body, legs and waist smoothed with seed 001's "
      "torque objective. Without this flag (auto) a clip that walks (steps, and its pelvis ends more than "
      "half a leg length from its start) gets the whole body too, but a walk the robot cannot execute then "
      "falls back to the upper body with a warning; with it, that is an error (exit 4)");
  cmd->add_flag(
         "--upper-body-only", o->upper_body_only,
         "Seed 000: imitate the upper body with both feet planted, even when the clip walks (a warning "
         "then says how far the human travels)")
      ->excludes(whole_body);
  cmd->add_option("--objective", o->objective,
                  "imitation (seed 000 eq. (1), default) or torque (integral of tau^T tau)")
      ->check(CLI::IsMember({"imitation", "torque"}));
  cmd->add_option("--sigma", o->sigma, "Weight of the head / hand position error in the imitation objective")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--torque-weight", o->torque_weight,
                  "Blended objective: imitation + W * integral of tau^T tau of the imitating joints, W in "
                  "rad^2/(N m)^2, 0..1000 (default 0: imitation only; README has a table of W on boxing)")
      ->check(CLI::Range(0.0, 1000.0));
  cmd->add_option("--solver", o->solver, "alm (augmented Lagrangian, default) or ipopt")
      ->check(CLI::IsMember({"alm", "ipopt"}));
  cmd->add_option("--threads", o->threads, "Threads of the solver, 0 = all cores (default: the job's, 0)")
      ->check(CLI::Range(0, 256));
  cmd->add_option("--max-iterations", o->max_iterations, "Outer iterations of the solver")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--knot-spacing", o->knot_spacing, "Seconds between B-spline knots (default 0.1)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--angle-factor", o->angle_factor, "Safety factor in (0, 1] on the joint angle ranges")
      ->check(CLI::Range(1e-6, 1.0));
  cmd->add_option("--velocity-factor", o->velocity_factor,
                  "Safety factor in (0, 1] on the joint velocity limits")
      ->check(CLI::Range(1e-6, 1.0));
  cmd->add_option("--torque-factor", o->torque_factor, "Safety factor in (0, 1] on the joint torque limits")
      ->check(CLI::Range(1e-6, 1.0));
  cmd->add_flag("--no-stability", o->no_stability, "Skip the ZMP / cart-table correction");
  cmd->add_option("--zmp-margin", o->zmp_margin,
                  "Distance in m kept between the ZMP and the support polygon's edge")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--preset", o->preset,
                  "Landmark preset: a shipped name (config/skeletons, config/markersets) or a YAML file; "
                  "default: recognised from the joint or marker names");
  cmd->add_option("--units", o->units, "Length unit of the clip: auto|m|dm|cm|mm|inch|cmu (default auto)");
  cmd->add_option("--up", o->up, "Up axis of the clip: auto|x|y|z (or +y, -z ...) (default auto)");
  cmd->add_option("--scale", o->scale,
                  "Human-to-robot length ratio (robot / human) for the hands' reach and the pelvis height: "
                  "a number, auto (robot arm length / human arm length, the default) or height (robot "
                  "standing height / human standing height, head above ankle)")
      ->check(CLI::Validator(
          [](const std::string& text) {
            const core::ParsedNumber number = core::parse_number(text);
            const bool ok = text == "auto" || text == "height" ||
                            (number.status == core::NumberStatus::kOk && number.value > 0.0);
            return ok ? std::string() : "expected auto, height or a number > 0, found '" + text + "'";
          },
          "auto|height|NUMBER"));
  cmd->add_option(
         "--velocity-scale", o->velocity_scale,
         "Fraction of the joint velocity limits the re-timed reference may use, in (0, 1] (default 0.9)")
      ->check(CLI::Range(1e-6, 1.0));
  cmd->add_option("--columns", o->columns,
                  "Columns of OUT.pos: the robot's joints (its description's joint_order), or those and its "
                  "extra_columns (HRP-2: 30, or 40 with 10 hand-mechanism zeros)")
      ->check(CLI::PositiveNumber);
  app::add_robot_option(cmd, o->robot);
  cmd->add_flag(
      "--save-reference", o->save_reference,
      "Also write OUT.reference.pos (re-timed kinematic reference) and OUT.original.pos (the clip's "
      "timing) for `mimic plot`");
  return [o]() { return run_retarget(*o); };
}

MIMIC_REGISTER_COMMAND("retarget", setup_retarget);

}  // namespace
