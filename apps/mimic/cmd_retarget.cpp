// `mimic retarget IN.{bvh,c3d} -o OUT.pos --kinematic-only`: the kinematic retargeting baseline
// (pipeline/kinematic_retarget.hpp), writing OUT.pos, OUT.waist and OUT.zmp. The optimised pipeline will
// run when --kinematic-only is absent; until it exists the flag is required.
#include <spdlog/spdlog.h>

#include <iostream>
#include <memory>
#include <string>

#include "command.hpp"
#include "mimic/mocap/load.hpp"
#include "mimic/pipeline/kinematic_retarget.hpp"

namespace {

using namespace mimic;

struct RetargetCommandOptions {
  std::string input, output, preset, units = "auto", up = "auto", model, robot_config;
  bool kinematic_only = false;
  double scale = 0.0, velocity_scale = 0.9;
  int columns = 30;
};

std::function<int()> setup_retarget(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "retarget",
      "Retarget a human motion capture (BVH skeleton or C3D markers) onto HRP-2. --kinematic-only: "
      "landmarks, "
      "per-frame upper-body IK (legs at half-sitting, pelvis height kept), Algorithm 1 re-timing within the "
      "velocity limits, 200 Hz output as OUT.pos, OUT.waist and OUT.zmp (multibody ZMP in the waist frame).");
  auto o = std::make_shared<RetargetCommandOptions>();
  cmd->add_option("input", o->input, "Motion capture file (.bvh or .c3d)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", o->output, "Output OUT.pos; OUT.waist and OUT.zmp are written beside it")
      ->required();
  cmd->add_flag("--kinematic-only", o->kinematic_only,
                "Kinematic baseline only: no dynamics optimisation (required for now)");
  cmd->add_option("--preset", o->preset,
                  "Landmark preset: a shipped name (config/skeletons, config/markersets) or a YAML file; "
                  "default: recognised from the joint or marker names");
  cmd->add_option("--units", o->units, "Length unit of the clip: auto|m|dm|cm|mm|inch|cmu")
      ->capture_default_str();
  cmd->add_option("--up", o->up, "Up axis of the clip: auto|x|y|z (or +y, -z ...)")->capture_default_str();
  cmd->add_option("--scale", o->scale,
                  "Human-to-robot length ratio (robot / human) for the hands' reach and the pelvis height; "
                  "default: robot arm length / human arm length")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--velocity-scale", o->velocity_scale,
                  "Fraction of the joint velocity limits the re-timed motion may use, in (0, 1]")
      ->check(CLI::Range(1e-6, 1.0))
      ->capture_default_str();
  cmd->add_option("--columns", o->columns, "Joint columns of OUT.pos: 30, or 40 (10 hand-mechanism zeros)")
      ->check(CLI::IsMember({30, 40}))
      ->capture_default_str();
  cmd->add_option("--model", o->model,
                  "Robot URDF (default: the one config/hrp2.yaml names, models/hrp2.urdf)");
  cmd->add_option("--robot-config", o->robot_config, "Robot configuration YAML (default: config/hrp2.yaml)");

  return [o]() {
    if (!o->kinematic_only) {
      spdlog::error(
          "mimic retarget: the optimised retargeting pipeline is not available yet; pass --kinematic-only "
          "for the "
          "kinematic baseline");
      return app::kUsage;
    }
    pipeline::KinematicRetargetOptions options;
    options.preset = o->preset;
    options.load.unit = mocap::parse_unit_option(o->units, "--units");
    options.load.up = mocap::parse_up_option(o->up, "--up");
    options.retarget.scale = o->scale;
    options.velocity_scale = o->velocity_scale;
    options.model = o->model;
    options.robot_config = o->robot_config;
    const ProgressCallback progress = [](const ProgressEvent& e) {
      spdlog::debug("{}: frame {}/{}, IK cost {:.4g}", e.stage, e.iteration, e.total, e.objective);
    };
    const pipeline::KinematicRetargetResult result =
        pipeline::kinematic_retarget(o->input, options, progress);
    pipeline::write_kinematic_retarget(o->output, result, o->columns);
    std::cout << pipeline::format_summary(result);
    std::cout << "  wrote " << o->output << " (+ .waist, .zmp)\n";
    return app::kOk;
  };
}

MIMIC_REGISTER_COMMAND("retarget", setup_retarget);

}  // namespace
