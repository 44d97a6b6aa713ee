// `mimic check MOTION.pos|MOTION.csv`: checks any motion file against the robot at its own sample rate
// (a CSV's given by --rate).
#include <spdlog/spdlog.h>

#include <iostream>
#include <optional>

#include "command.hpp"
#include "mimic/core/thread_pool.hpp"
#include "mimic/io/json.hpp"
#include "mimic/io/output_paths.hpp"
#include "mimic/pipeline/check.hpp"
#include "mimic/pipeline/job_options.hpp"
#include "mimic/pipeline/reports.hpp"
#include "mimic/pipeline/robot.hpp"
#include "rate_option.hpp"
#include "robot_option.hpp"
#include "robot_options.hpp"

namespace {

using namespace mimic;

std::function<int()> setup_check(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "check",
      "Check a motion (X.pos, with X.waist / X.hip beside it when present, or X.csv at --rate) against the "
      "robot at the motion's "
      "own sample rate: joint angle, velocity (finite differences) and torque limits (inverse dynamics with "
      "the ground reaction shared between the support feet, seed 001), ZMP inside the support polygon, and "
      "support-foot slip, self-collision (every checked pair of the URDF's collision shapes at least the "
      "safety distance apart) and sole corners above the floor. Prints the worst offenders; exit code 4 on "
      "any violation.");
  struct Options {
    std::string motion, job, report, contacts_job;
    app::RobotOption robot;
    double angle_factor = 1.0, velocity_factor = 1.0, torque_factor = 1.0;
    double zmp_margin = 0.0, slip = 1.0e-3, slip_deg = 0.1, safety_distance = 0.01;
    int max_offenders = 10;
    std::optional<double> rate;
    std::optional<int> threads;
  };
  auto opt = std::make_shared<Options>();
  cmd->add_option("motion", opt->motion, "Motion to check: X.pos (or its base name X), or X.csv")->required();
  app::add_rate_option(
      cmd, opt->rate,
      "a .csv motion, which carries no time (required for one unless the job gives csv_rate)");
  cmd->add_option(
      "--config", opt->job,
      "Job YAML: takes the robot, the payload, the limit safety factors, the contact phases and the ZMP "
      "margin (stability.zmp_margin) from it (options given here win)");
  app::add_robot_option(cmd, opt->robot);
  auto* af =
      cmd->add_option("--angle-factor", opt->angle_factor, "Safety factor on the joint angle ranges (0, 1]")
          ->check(CLI::Range(1e-6, 1.0));
  auto* vf = cmd->add_option("--velocity-factor", opt->velocity_factor,
                             "Safety factor on the velocity limits (0, 1]")
                 ->check(CLI::Range(1e-6, 1.0));
  auto* tf =
      cmd->add_option("--torque-factor", opt->torque_factor, "Safety factor on the torque limits (0, 1]")
          ->check(CLI::Range(1e-6, 1.0));
  auto* zm = cmd->add_option("--zmp-margin", opt->zmp_margin,
                             "Required distance (m) between the ZMP and the support polygon's edge "
                             "(default 0, or the job's stability.zmp_margin with --config)");
  auto* sd =
      cmd->add_option("--safety-distance", opt->safety_distance,
                      "Smallest distance (m) accepted between two of the robot's collision shapes (the "
                      "URDF's <collision> elements, as the optimizers keep them apart); closer counts "
                      "as a self-collision (default 0.01, or the job's geometry.safety_distance)")
          ->check(CLI::Range(1e-6, 0.1));
  cmd->add_option("--slip", opt->slip, "Largest support-foot drift accepted (m)")->capture_default_str();
  cmd->add_option("--slip-deg", opt->slip_deg, "Largest support-foot rotation accepted (deg)")
      ->capture_default_str();
  cmd->add_option("--report", opt->report, "Also write the result as JSON to this file");
  cmd->add_option("--max-offenders", opt->max_offenders, "How many violations to list")
      ->capture_default_str();
  cmd->add_option("--threads", opt->threads,
                  "Threads checking the samples, 0 = all cores (default: the job's solver.threads, 0); the "
                  "result does not depend on it")
      ->check(CLI::Range(0, 256));
  return [opt, af, vf, tf, zm, sd]() {
    io::JobConfig job = opt->job.empty() ? io::default_job(io::JobKind::kSmooth) : io::load_job(opt->job);
    app::apply_robot_option(opt->robot, job.robot);
    std::vector<io::CommandFile> inputs = io::motion_file_set(opt->motion, "the checked motion");
    inputs.insert(inputs.end(), {{opt->job, "the job file (--config)"},
                                 {job.robot.model, "the robot model"},
                                 {job.robot.config, "the robot description"}});
    io::check_output_paths(inputs, {{opt->report, "the report (--report)"}});
    // A carried payload is part of the motion's dynamics (torques, ZMP), as in `mimic smooth`.
    const pipeline::Robot robot = pipeline::load_robot(job.robot, job.payload);
    evaluation::CheckOptions options = pipeline::check_options(job);
    if (*af) options.factors.angle_factor = opt->angle_factor;
    if (*vf) options.factors.velocity_factor = opt->velocity_factor;
    if (*tf) options.factors.torque_factor = opt->torque_factor;
    if (*zm || opt->job.empty()) options.zmp_margin = opt->zmp_margin;
    if (*sd) options.geometry.safety_distance = opt->safety_distance;
    options.collision = robot.collision;
    options.slip_position = opt->slip;
    options.slip_angle = opt->slip_deg * M_PI / 180.0;
    core::ThreadPool pool(core::thread_count(opt->threads.value_or(job.solver.threads)));
    const evaluation::Report report = pipeline::check_motion_files(
        robot, opt->motion, job.contacts, options, opt->rate ? opt->rate : job.csv_rate, &pool);
    std::cout << opt->motion << ": " << pipeline::format_check_report(report, opt->max_offenders);
    if (!opt->report.empty())
      io::write_json_file(opt->report, pipeline::check_report_json(report, opt->motion));
    return report.ok() ? app::kOk : app::kInfeasible;
  };
}

MIMIC_REGISTER_COMMAND("check", setup_check);

}  // namespace
