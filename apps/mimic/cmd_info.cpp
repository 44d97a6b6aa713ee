// `mimic info FILE`: what a robot model or a mocap clip contains; `mimic info --robot NAME|FILE [--model
// URDF]`: the robot as its description loads it, with its collision model and standing pose report.
//  * .urdf: the joints in OpenHRP order (when the model has them) with their limits, the total mass, the
//    centre of mass in half-sitting and the foot / hand / head frames (the robot description names them);
//  * .bvh / .c3d: the clip summary (--units / --up override the guesses), or with --landmarks the
//    landmark mapping (preset or automatic) and how each landmark was decided, or with --contacts the
//    contacts read from the clip (support phases, footsteps, flight phases, pelvis path).
// pipeline/describe.hpp writes both; this file is the command line only.
#include <filesystem>
#include <iostream>
#include <string>

#include "command.hpp"
#include "mimic/core/error.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/pipeline/describe.hpp"
#include "robot_options.hpp"

namespace {

using namespace mimic;

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

std::function<int()> setup_info(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "info",
      "Describe a robot model (.urdf: joints in OpenHRP order with limits, total mass, centre of mass in "
      "half-sitting, foot / hand / head frames) or a motion-capture clip (.bvh, .c3d: skeleton or markers, "
      "frames, rate, units)");
  struct Options {
    std::string file, model;
    std::string robot_config;  // empty: hrp2, the data directory's, looked up when the command runs
    std::string units = "auto", up = "auto";
    bool landmarks = false;
    bool contacts = false;
    std::string preset;
  };
  auto opt = std::make_shared<Options>();
  cmd->add_option("file", opt->file, "A .urdf, .bvh or .c3d file (none: the robot of --robot)");
  auto* robot =
      cmd->add_option("--robot,--robot-config", opt->robot_config,
                      "Robot: a shipped description (hrp2, jvrc1, g1) or a description YAML; without "
                      "FILE, describe it as loaded, with its collision model and standing pose "
                      "(default: hrp2)");
  cmd->add_option("--model", opt->model, "The robot's URDF, replacing the description's (with --robot)");
  // The same overrides as `mimic retarget`, so that a guess `info` reports wrong can be checked fixed.
  cmd->add_option("--units", opt->units,
                  "Clip only: length unit of the clip, auto|m|dm|cm|mm|inch|cmu (default auto)");
  cmd->add_option("--up", opt->up,
                  "Clip only: up axis of the clip, auto|x|y|z (or +y, -z ...) (default auto)");
  cmd->add_flag("--landmarks", opt->landmarks,
                "Clip only: print the landmark mapping retargeting would use (preset or automatic), joint or "
                "markers per landmark and how each was decided");
  cmd->add_flag("--contacts", opt->contacts,
                "Clip only: print the contacts read from the clip: support phases of each foot, footsteps "
                "(position, heading), flight phases, the pelvis path and its travel, steps and cadence");
  cmd->add_option(
      "--preset", opt->preset,
      "Clip only, with --landmarks or --contacts: a shipped preset name, a YAML file, or 'automatic'");
  return [opt, robot]() -> int {
    const std::string description = opt->robot_config.empty()
                                        ? model::default_robot_description_path()
                                        : app::robot_description_path(opt->robot_config);
    if (opt->file.empty()) {
      if (robot->count() == 0 && opt->model.empty())
        throw UsageError("info: give a FILE (.urdf, .bvh, .c3d) or a robot with --robot NAME|FILE");
      pipeline::describe_robot_description(description, opt->model, std::cout);
      return app::kOk;
    }
    const std::string ext = lower_extension(opt->file);
    if (ext == ".urdf" && robot->count() > 0) {
      // A URDF with an explicit robot: that robot on this file.
      pipeline::describe_robot_description(description, opt->file, std::cout);
      return app::kOk;
    }
    if (ext == ".urdf") {
      pipeline::describe_robot(opt->file, description, std::cout);
      return app::kOk;
    }
    if (ext == ".bvh" || ext == ".c3d") {
      if (opt->landmarks && opt->contacts) throw UsageError("info: give --landmarks or --contacts, not both");
      if (opt->contacts) {
        pipeline::describe_contacts(opt->file, opt->units, opt->up, opt->preset, std::cout, "--units",
                                    "--up");
      } else if (opt->landmarks) {
        pipeline::describe_landmarks(opt->file, opt->units, opt->up, opt->preset, std::cout, "--units",
                                     "--up");
      } else {
        pipeline::describe_clip(opt->file, opt->units, opt->up, std::cout, "--units", "--up");
      }
      return app::kOk;
    }
    throw InputError(
        input_error_message(opt->file, "", "unknown file type '" + ext + "' (expected .urdf, .bvh or .c3d)"));
  };
}

MIMIC_REGISTER_COMMAND("info", setup_info);

}  // namespace
