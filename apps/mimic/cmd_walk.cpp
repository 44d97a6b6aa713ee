// `mimic walk STEPS.yaml -o WALK.pos`: the CLI of the walk stage (pipeline/walk.hpp), a walking pattern from
// a footstep plan; writes WALK.pos, WALK.waist and WALK.zmp (the multibody ZMP of the motion, waist frame).
#include <filesystem>
#include <iostream>
#include <optional>

#include "command.hpp"
#include "mimic/core/error.hpp"
#include "mimic/io/job.hpp"
#include "mimic/io/output_paths.hpp"
#include "mimic/pipeline/reports.hpp"
#include "mimic/pipeline/walk.hpp"
#include "rate_option.hpp"
#include "robot_option.hpp"
#include "robot_options.hpp"

namespace {

using namespace mimic;

struct Options {
  std::string steps, output, upper_body, job, report;
  int columns = 0;  // 0: the job's
  std::optional<double> rate;
  app::RobotOption robot;
};

io::JobConfig assemble_job(const Options& opt) {
  io::JobConfig job = opt.job.empty() ? io::default_job(io::JobKind::kWalk) : io::load_job(opt.job);
  if (job.job != io::JobKind::kWalk) {
    throw InputError(input_error_message(
        opt.job, "", "job: expected walk for `mimic walk`, found " + std::string(io::to_string(job.job))));
  }
  if (!opt.steps.empty()) job.input = opt.steps;
  if (!opt.output.empty()) job.output.path = opt.output;
  if (opt.columns != 0) job.output.columns = opt.columns;
  if (!opt.report.empty()) job.output.report = opt.report;
  if (opt.rate) job.csv_rate = *opt.rate;
  app::apply_robot_option(opt.robot, job.robot);
  if (opt.columns != 0) app::check_columns_option(opt.columns, job.robot);
  io::validate_job(job);
  io::check_job_output_paths(job, {{opt.upper_body, "the upper-body motion (--upper-body)"}});
  return job;
}

int run_walk(const Options& opt) {
  const io::JobConfig job = assemble_job(opt);
  // The summary is printed before the limits are checked: a refused walk still shows its numbers.
  const pipeline::WalkResult walk = pipeline::run_walk(
      job, opt.upper_body,
      [&](const pipeline::WalkResult& w) { std::cout << pipeline::format_walk_summary(job.output.path, w); });
  pipeline::write_walk_outputs(job, walk);
  return app::kOk;
}

std::function<int()> setup_walk(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "walk",
      "Generate a walking pattern from a footstep YAML (Kajita's preview control of the cart-table, leg IK, "
      "an upper body from a posture, a .pos or keyframes, an optional payload from --config) and write "
      "X.pos, X.waist and X.zmp (the multibody ZMP of the motion, waist frame). Prints the ZMP deviation and "
      "margin, the joint velocity peak and the foot slip. Exit code 4 when the motion breaks a limit.");
  auto opt = std::make_shared<Options>();
  cmd->add_option("steps", opt->steps,
                  "Footstep YAML (e.g. config/walk/bar_steps.yaml); default: the job's input");
  cmd->add_option(
      "-o,--output", opt->output,
      "Output X.pos (X.waist and X.zmp beside it) or X.csv (Unitree / LAFAN1 convention, at --rate)");
  app::add_rate_option(cmd, opt->rate, "a .csv output (default: the job's csv_rate, else the walk's 200 Hz)");
  cmd->add_option("--upper-body", opt->upper_body,
                  "Upper-body motion: a .pos (resampled) or a keyframe .yaml (default: the steps file's "
                  "upper_body, else half-sitting)");
  cmd->add_option("--columns", opt->columns,
                  "Columns of X.pos: the robot's joints (its description's joint_order), or those and its "
                  "extra_columns (HRP-2: 30, or 40 with 10 hand values)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--config", opt->job, "Job YAML (job: walk): robot, payload, preview settings, output");
  app::add_robot_option(cmd, opt->robot);
  cmd->add_option("--report", opt->report, "Also write the settings and the summary as JSON to this file");
  return [opt]() { return run_walk(*opt); };
}

MIMIC_REGISTER_COMMAND("walk", setup_walk);

}  // namespace
