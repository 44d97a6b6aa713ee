// `mimic plot MOTION.pos|MOTION.csv`: joint angles (with comparison motions and the limits), joint torques
// against their limits and the ZMP against the support polygon, drawn by gnuplot as PNG or SVG.
#include <spdlog/spdlog.h>

#include <iostream>
#include <optional>

#include "command.hpp"
#include "mimic/io/job.hpp"
#include "mimic/io/output_paths.hpp"
#include "mimic/pipeline/job_options.hpp"
#include "mimic/pipeline/plot.hpp"
#include "mimic/pipeline/robot.hpp"
#include "rate_option.hpp"
#include "robot_option.hpp"
#include "robot_options.hpp"

namespace {

using namespace mimic;

struct Options {
  std::string motion, output, format = "png", job, gnuplot = "gnuplot";
  app::RobotOption robot;
  std::vector<std::string> joints, compare;
  int max_joints = 8, torque_joints = 6;
  bool no_auto_compare = false, data_only = false;
  std::optional<double> rate;
};

int run_plot(const Options& opt) {
  io::JobConfig job = opt.job.empty() ? io::default_job(io::JobKind::kSmooth) : io::load_job(opt.job);
  app::apply_robot_option(opt.robot, job.robot);
  // The figures and data go into the -o folder: it must not be one of the files read.
  std::vector<io::CommandFile> inputs = io::motion_file_set(opt.motion, "the plotted motion");
  for (const std::string& compared : opt.compare) {
    for (io::CommandFile& file : io::motion_file_set(compared, "a compared motion (--compare)"))
      inputs.push_back(std::move(file));
  }
  inputs.push_back({opt.job, "the job file (--config)"});
  io::check_output_paths(inputs, {{opt.output, "the plot folder (-o)"}});
  const pipeline::Robot robot = pipeline::load_robot(job.robot, job.payload);
  app::check_joint_count_option("--max-joints", opt.max_joints, robot.model.nj);
  app::check_joint_count_option("--torque-joints", opt.torque_joints, robot.model.nj);

  pipeline::PlotOptions options;
  options.output_dir = opt.output;
  options.format = pipeline::parse_plot_format(opt.format);
  options.selection.joints = opt.joints;
  options.selection.max_joints = opt.max_joints;
  options.selection.max_torque_joints = opt.torque_joints;
  options.geometry.collision = robot.collision;
  options.geometry.check = pipeline::check_options(job).geometry;
  options.compare.assign(opt.compare.begin(), opt.compare.end());
  options.csv_rate = opt.rate ? opt.rate : job.csv_rate;
  options.auto_compare = !opt.no_auto_compare;
  options.render = !opt.data_only;
  options.gnuplot = opt.gnuplot;
  const auto result = pipeline::plot_motion(robot.model, robot.feet, opt.motion, job.contacts, options);

  std::string motions;
  for (const auto& label : result.labels) motions += (motions.empty() ? "" : ", ") + label;
  std::string joints;
  for (const int j : result.data.joints)
    joints += (joints.empty() ? "" : " ") + result.data.joint_names[static_cast<std::size_t>(j)];
  std::string torque_joints;
  for (const int j : result.data.torque_joints)
    torque_joints +=
        (torque_joints.empty() ? "" : " ") + result.data.joint_names[static_cast<std::size_t>(j)];
  std::cout << opt.motion << ": plotted " << motions << "\n"
            << "  joints: " << joints << "\n"
            << "  torques: " << torque_joints << "\n";
  for (const auto& f : result.figures) std::cout << "  wrote " << f.string() << "\n";
  std::cout << "  data and script: " << result.script.string() << " (redraw: cd " << result.dir.string()
            << " && gnuplot plot.gp)\n";
  return app::kOk;
}

std::function<int()> setup_plot(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "plot",
      "Draw a motion (X.pos, with X.waist beside it when present) with gnuplot (Debian package gnuplot-nox) "
      "into DIR: joints.<fmt> (angle over time of the selected joints for X and every comparison motion, "
      "each on its own time axis, with the model's angle limits as in seed 000 Fig. 2), torques.<fmt> "
      "(joint torques of X from inverse dynamics with the ground reaction shared by the support feet, "
      "against the +-effort limits, for the most loaded joints) and zmp.<fmt> (the multibody ZMP and the "
      "CoM projection in the ground plane over the support polygons, and x(t), y(t) and the margin over "
      "time) and geometry.<fmt> (the smallest distance between two of the robot's collision shapes over "
      "time against the safety distance, and the lowest sole corner against the floor). X.original.pos and "
      "X.reference.pos beside X (written by `mimic retarget`) are drawn as "
      "comparisons when present. DIR keeps the data (*.dat) and the script plot.gp: `cd DIR && gnuplot "
      "plot.gp` redraws after an edit. Exit code 3 for a missing or malformed motion or an unknown joint, "
      "5 when DIR cannot be written or gnuplot is missing or fails.");
  auto opt = std::make_shared<Options>();
  cmd->add_option("motion", opt->motion, "Motion to draw: X.pos (or its base name X), or X.csv")->required();
  app::add_rate_option(cmd, opt->rate,
                       ".csv motions, which carry no time (required for one unless the job gives csv_rate)");
  cmd->add_option("-o,--output", opt->output,
                  "Folder of the figures, data and script (default: X.plots beside X.pos)");
  cmd->add_option("--format", opt->format, "Figure format: png (pngcairo, else gnuplot's png) or svg")
      ->check(CLI::IsMember({"png", "svg"}))
      ->capture_default_str();
  cmd->add_option("--joints", opt->joints,
                  "Comma-separated joints of joints.<fmt>, named as in the robot description's joint_order; "
                  "default: the joints that move the most")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("--max-joints", opt->max_joints,
                  "Panels of joints.<fmt> when --joints is not given: 1 to the robot's joint count")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--torque-joints", opt->torque_joints,
                  "Panels of torques.<fmt>: the joints of largest peak |tau| / effort limit, 1 to the "
                  "robot's joint count")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--compare", opt->compare,
                  "Another motion (.pos) to draw in joints.<fmt>, labelled by its file stem; repeatable")
      ->allow_extra_args(false);
  cmd->add_flag("--no-auto-compare", opt->no_auto_compare,
                "Do not add X.original.pos and X.reference.pos when they exist beside X");
  cmd->add_option("--config", opt->job,
                  "Job YAML: takes the robot, the payload (its inertia joins the dynamics), the contact "
                  "phases and geometry.safety_distance from it");
  app::add_robot_option(cmd, opt->robot);
  cmd->add_flag("--data-only", opt->data_only, "Write the data and plot.gp but do not run gnuplot");
  cmd->add_option("--gnuplot", opt->gnuplot, "The gnuplot program (searched in PATH unless it has a '/')")
      ->capture_default_str();
  return [opt]() { return run_plot(*opt); };
}

MIMIC_REGISTER_COMMAND("plot", setup_plot);

}  // namespace
