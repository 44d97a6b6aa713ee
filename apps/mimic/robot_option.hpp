// `--robot NAME|FILE` and `--model URDF` of the commands that run a job (walk, smooth): the robot the job's
// `robot:` section names, replaced from the command line. One option text for those commands, so that they
// read alike; NAME is resolved by robot_description_path (robot_options.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "mimic/io/job.hpp"
#include "robot_options.hpp"

namespace mimic::app {

struct RobotOption {
  std::string robot;  // --robot: a shipped description's name or a description file; empty: the job's
  std::string model;  // --model: the URDF; empty: the job's, else the description's `urdf:`
};

inline void add_robot_option(CLI::App* cmd, RobotOption& option) {
  cmd->add_option("--robot,--robot-config", option.robot,
                  "Robot: a shipped description (hrp2, jvrc1, g1) or a description YAML (default: the job's, "
                  "else hrp2)");
  cmd->add_option("--model", option.model,
                  "Robot URDF (default: the job's, else the one the robot description names)");
}

// Writes the options given into the job's robot settings (before io::validate_job, which checks them).
inline void apply_robot_option(const RobotOption& option, io::RobotSettings& robot) {
  if (!option.robot.empty()) {
    robot.config = robot_description_path(option.robot);
    // Another robot's description with the job's (default: HRP-2's) URDF would not load: the description
    // names its own URDF unless --model says otherwise.
    if (option.model.empty()) robot.model.clear();
  }
  if (!option.model.empty()) robot.model = option.model;
}

}  // namespace mimic::app
