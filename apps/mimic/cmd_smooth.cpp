// `mimic smooth PLANNED.pos [-o SMOOTHED.pos]`: seed 001's torque-minimising smoothing of a planned motion
// (legs and waist position active, upper body passive, support feet still), projected on the exact support
// constraint, ZMP kept in the support polygon. Writes SMOOTHED.pos, .waist and .zmp (all or none).
#include <spdlog/spdlog.h>

#include <iostream>
#include <optional>

#include "command.hpp"
#include "mimic/core/error.hpp"
#include "mimic/io/csv_motion.hpp"
#include "mimic/io/job.hpp"
#include "mimic/io/json.hpp"
#include "mimic/io/motion_files.hpp"
#include "mimic/io/output_paths.hpp"
#include "mimic/io/sample_spacing.hpp"
#include "mimic/pipeline/csv_motion.hpp"
#include "mimic/pipeline/job_options.hpp"
#include "mimic/pipeline/read_motion.hpp"
#include "mimic/pipeline/reports.hpp"
#include "mimic/pipeline/robot.hpp"
#include "mimic/pipeline/smooth.hpp"
#include "progress_log.hpp"
#include "rate_option.hpp"
#include "robot_option.hpp"

namespace {

using namespace mimic;

struct Options {
  std::string planned, output, job, solver, report;
  std::optional<int> threads;
  std::optional<double> rate;
  app::RobotOption robot;
};

io::JobConfig assemble_job(const Options& opt) {
  io::JobConfig job = opt.job.empty() ? io::default_job(io::JobKind::kSmooth) : io::load_job(opt.job);
  if (job.job != io::JobKind::kSmooth) {
    throw InputError(input_error_message(
        opt.job, "",
        "job: expected smooth for `mimic smooth`, found " + std::string(io::to_string(job.job))));
  }
  if (!opt.planned.empty()) job.input = opt.planned;
  if (!opt.output.empty()) job.output.path = opt.output;
  // Default output: <stem>.smoothed.pos beside the input (<stem>.smoothed.csv for a .csv input).
  if (job.output.path.empty() && !job.input.empty()) {
    const std::filesystem::path base = pipeline::motion_base_name(job.input);
    job.output.path =
        base.parent_path() /
        (base.filename().string() + (io::is_csv_motion(job.input) ? ".smoothed.csv" : ".smoothed.pos"));
  }
  if (!opt.solver.empty()) job.solver.name = io::parse_backend(opt.solver, "--solver");
  if (opt.threads) job.solver.threads = *opt.threads;
  if (!opt.report.empty()) job.output.report = opt.report;
  if (opt.rate) job.csv_rate = *opt.rate;
  app::apply_robot_option(opt.robot, job.robot);
  io::validate_job(job);
  io::check_job_output_paths(job);
  return job;
}

int run_smooth(const Options& opt) {
  const io::JobConfig job = assemble_job(opt);
  const pipeline::Robot robot = pipeline::load_robot(job.robot, job.payload);
  pipeline::check_smooth_joints(robot.description);
  const model::Model& model = robot.model;
  const stability::Feet& feet = robot.feet;

  const io::PosLayout layout = io::PosLayout::of(robot.description);
  const io::PosWriteOptions write_options = io::pos_write_options(job, layout);  // before the solve
  const model::SampledMotion planned =
      pipeline::read_sampled_motion(robot, job.input, job.contacts, job.csv_rate);
  io::check_sample_spacing(planned.times, job.trajectory.knot_spacing,
                           io::is_csv_motion(job.input)
                               ? job.input.string()
                               : io::motion_file(io::motion_base(job.input), ".pos").string());
  spdlog::info("smooth {} -> {} ({} samples, {} s, contacts {}, base {})", job.input.string(),
               job.output.path.string(), planned.size(), planned.times.back() - planned.times.front(),
               job.contacts.empty() ? "detected" : "from the job",
               planned.base_reconstructed     ? "reconstructed from the support foot"
               : io::is_csv_motion(job.input) ? "from the CSV"
                                              : "from the waist file");

  pipeline::SmoothSettings settings = pipeline::smooth_settings(job);
  settings.geometry.collision = robot.collision;
  const pipeline::SmoothResult result =
      pipeline::smooth_motion(model, feet, planned, settings, app::progress_logger());
  std::cout << job.output.path.string() << ":\n" << pipeline::format_smooth_summary(robot, result);
  // A motion the robot cannot play is not written, and neither is its report (all outputs or none).
  pipeline::require_success(result);
  if (const std::string warning = pipeline::short_of_optimum_warning(result.solve, "smoothed motion");
      !warning.empty())
    spdlog::warn("{}", warning);

  // A .csv output is formatted (and resampled) before anything is written, as the .pos files are.
  std::optional<pipeline::CsvOutput> csv;
  if (io::is_csv_motion(job.output.path)) {
    csv = pipeline::csv_output(model, robot.description.joint_order, result.motion, job.csv_rate,
                               job.output.path.string());
  }
  io::write_report_with_outputs(job.output.report, pipeline::smooth_report_json(job, model, result), [&] {
    if (csv)
      pipeline::write_csv_output(job.output.path, *csv);
    else
      io::write_motion(io::motion_base(job.output.path), result.files, write_options, layout);
  });
  if (csv) spdlog::info("wrote {}", pipeline::csv_output_summary(job.output.path, *csv));
  return app::kOk;
}

std::function<int()> setup_smooth(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "smooth",
      "Smooth a planned motion (seed 001): minimise the integral of tau^T tau with the legs and the waist "
      "position active and the upper body passive, support feet kept still (exactly, by a final leg-IK "
      "projection), joint angle / velocity / torque limits kept, ZMP inside the support polygon. Reads "
      "X.pos and X.waist (or X.hip) beside it; writes the smoothed .pos, .waist and .zmp. Prints the torque "
      "integral before / after, peak torques, foot slip, ZMP margin. Exit code 4 when a limit cannot be "
      "met.");
  auto opt = std::make_shared<Options>();
  cmd->add_option("planned", opt->planned, "Planned motion X.pos or X.csv (default: the job's input)");
  cmd->add_option("-o,--output", opt->output,
                  "Output Y.pos (Y.waist and Y.zmp beside it) or Y.csv; default: the job's, else "
                  "X.smoothed.pos");
  app::add_rate_option(cmd, opt->rate,
                       "a .csv input (required for one unless the job gives csv_rate) and a .csv output "
                       "(default: the input's)");
  cmd->add_option("--config", opt->job,
                  "Job YAML (job: smooth): robot, limits, solver, contacts, payload, stability, output");
  app::add_robot_option(cmd, opt->robot);
  cmd->add_option("--solver", opt->solver, "alm (augmented Lagrangian, default) or ipopt")
      ->check(CLI::IsMember({"alm", "ipopt"}));
  cmd->add_option("--threads", opt->threads, "Threads of the solver, 0 = all cores (default: the job's, 0)")
      ->check(CLI::Range(0, 256));
  cmd->add_option("--report", opt->report, "Also write the settings and the summary as JSON to this file");
  return [opt]() { return run_smooth(*opt); };
}

MIMIC_REGISTER_COMMAND("smooth", setup_smooth);

}  // namespace
