// `mimic view MOTION.pos [-o MOTION.html]`: one self-contained HTML page that plays the motion on the robot
// (view/scene.hpp, view/page.hpp), and with --png DIR / --strip snapshots of it taken by headless
// Chromium (view/snapshots.hpp).
#include <spdlog/spdlog.h>

#include <cstdio>
#include <iostream>

#include "command.hpp"
#include "mimic/io/csv_motion.hpp"
#include "mimic/io/job.hpp"
#include "mimic/io/motion_files.hpp"
#include "mimic/io/output_paths.hpp"
#include "mimic/pipeline/job_options.hpp"
#include "mimic/pipeline/robot.hpp"
#include "mimic/view/page.hpp"
#include "mimic/view/scene.hpp"
#include "mimic/view/snapshots.hpp"
#include "rate_option.hpp"
#include "robot_option.hpp"

namespace {

using namespace mimic;
namespace fs = std::filesystem;

struct Options {
  std::string motion, output, job, png;
  app::RobotOption robot;
  double fps = 50.0;
  std::optional<double> rate;  // of a .csv motion
  bool strip = false;
  int frames = 8;
};

int run_view(const Options& opt) {
  io::JobConfig job = opt.job.empty() ? io::default_job(io::JobKind::kSmooth) : io::load_job(opt.job);
  app::apply_robot_option(opt.robot, job.robot);
  const bool csv = io::is_csv_motion(opt.motion);
  const fs::path base = csv ? fs::path(opt.motion).replace_extension() : io::motion_base(opt.motion);
  const fs::path html = opt.output.empty() ? fs::path(base.string() + ".html") : fs::path(opt.output);
  // --strip alone puts the pictures beside the page, in <page>.snapshots.
  const fs::path png_dir = !opt.png.empty() ? fs::path(opt.png)
                           : opt.strip ? fs::path(html.parent_path() / (html.stem().string() + ".snapshots"))
                                       : fs::path();

  std::vector<io::CommandFile> inputs = io::motion_file_set(opt.motion, "the viewed motion");
  for (io::CommandFile& file :
       io::motion_file_set(base.string() + ".reference", "the reference (X.reference)"))
    inputs.push_back(std::move(file));
  inputs.insert(inputs.end(), {{opt.job, "the job file (--config)"},
                               {job.robot.model, "the robot model"},
                               {job.robot.config, "the robot description"}});
  std::vector<io::CommandFile> outputs = {{html, "the page (-o)"}};
  if (!png_dir.empty()) {
    for (const fs::path& png : view::snapshot_paths(png_dir, html.stem().string(), opt.frames))
      outputs.push_back({png, "a snapshot (--png)"});
  }
  io::check_output_paths(inputs, outputs);
  // Nothing is written when the snapshots cannot be taken.
  if (!png_dir.empty()) view::required_chromium();

  const pipeline::Robot robot = pipeline::load_robot(job.robot, job.payload);
  view::SceneOptions options;
  options.rate = opt.fps;
  options.csv_rate = opt.rate ? opt.rate : job.csv_rate;
  options.contacts = job.contacts;
  options.check = pipeline::check_options(job);
  options.check.collision = robot.collision;
  const view::Scene scene = view::build_scene(robot, opt.motion, options);
  view::write_page(html, scene);
  char duration[32];
  std::snprintf(duration, sizeof duration, "%.2f", scene.times.back() - scene.times.front());
  std::cout << opt.motion << ": " << scene.times.size() << " frames over " << duration << " s, "
            << scene.violations.size() << " violation(s) of the check marked"
            << (scene.reference.size() > 0 ? ", with the reference" : "") << "\n  wrote " << html.string()
            << " (" << fs::file_size(html) / 1024 << " KiB)\n";
  if (!png_dir.empty()) {
    view::SnapshotOptions snapshots;
    snapshots.frames = opt.frames;
    for (const fs::path& png :
         view::write_snapshots(html, png_dir, scene.times.front(), scene.times.back(), snapshots))
      std::cout << "  wrote " << png.string() << "\n";
  }
  return app::kOk;
}

std::function<int()> setup_view(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "view",
      "Write one self-contained HTML page (three.js from the Debian package libjs-three inlined; opens "
      "offline) that plays a motion (X.pos, with X.waist / X.hip / X.zmp beside it when present) on the "
      "robot drawn from its collision shapes: timeline, play / pause, speed, the ground, the support polygon "
      "and the ZMP (X.zmp, else computed), the kinematic reference as a stick figure when X.reference.* is "
      "beside the motion, and the samples where `mimic check` finds a violation marked red. With --png DIR "
      "or "
      "--strip, headless Chromium (Debian package chromium) also writes snapshots. Exit code 0 even when "
      "the motion has violations (the page shows them; `mimic check` judges).");
  auto opt = std::make_shared<Options>();
  cmd->add_option("motion", opt->motion, "Motion to view: X.pos (or its base name X), or X.csv with --rate")
      ->required();
  cmd->add_option("-o,--output", opt->output, "The page (default: X.html beside the motion)");
  cmd->add_option(
      "--config", opt->job,
      "Job YAML: takes the robot, the payload, the contact phases and the check's settings from it");
  app::add_robot_option(cmd, opt->robot);
  app::add_rate_option(cmd, opt->rate, "a .csv motion (required for one: a CSV carries no time)");
  cmd->add_option("--fps", opt->fps,
                  "Frames per second the page holds (a slower motion keeps its own samples); 50 is smoother "
                  "than the eye needs and keeps the page a quarter of a 200 Hz one")
      ->check(CLI::Range(1.0, 1000.0))
      ->capture_default_str();
  cmd->add_option("--png", opt->png,
                  "Also write snapshots into this folder: <page>_01.png .. and <page>_strip.png");
  cmd->add_flag("--strip", opt->strip,
                "Also write the snapshots, into <page>.snapshots beside the page (or --png)");
  cmd->add_option("--frames", opt->frames, "Snapshots, evenly spaced over the motion")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  return [opt]() { return run_view(*opt); };
}

MIMIC_REGISTER_COMMAND("view", setup_view);

}  // namespace
