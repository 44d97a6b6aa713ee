// Command-line values whose bounds are the robot's, checked once the job (and so the robot) is known:
// a bad value is still a bad command line, thrown as UsageError "--option: expected ..., found ..." and
// mapped to exit code 2 by main.cpp, as if CLI11 had refused it while parsing.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "mimic/core/error.hpp"
#include "mimic/io/job.hpp"
#include "mimic/io/pos_layout.hpp"
#include "mimic/model/robot_description.hpp"

namespace mimic::app {

// --robot NAME|FILE (--robot-config is its old name): NAME is a shipped description,
// config/robots/NAME.yaml next to the default one (hrp2, jvrc1, g1); a value with a '/' or ending in .yaml
// / .yml is a description file. An unknown NAME is a UsageError listing the shipped ones.
inline std::string robot_description_path(const std::string& robot) {
  namespace fs = std::filesystem;
  if (robot.empty() || robot.find('/') != std::string::npos || robot.ends_with(".yaml") ||
      robot.ends_with(".yml"))
    return robot;
  const fs::path folder = fs::path(model::default_robot_description_path()).parent_path();
  const fs::path path = folder / (robot + ".yaml");
  if (fs::exists(path)) return path.string();
  std::vector<std::string> shipped;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.path().extension() == ".yaml") shipped.push_back(entry.path().stem().string());
  std::sort(shipped.begin(), shipped.end());
  std::string names;
  for (const auto& name : shipped) names += (names.empty() ? "" : ", ") + name;
  throw UsageError("--robot: expected a shipped robot (" + names + ") or a description file, found '" +
                   robot + "'");
}

// --columns of `retarget` and `walk`: the robot's .pos layout (io::PosLayout, from its description) allows
// its joint_order alone or followed by its extra_columns (HRP-2: 30 or 40).
inline void check_columns_option(int columns, const io::RobotSettings& robot) {
  const std::string path =
      robot.config.empty() ? model::default_robot_description_path() : robot.config.string();
  const io::PosLayout layout = io::PosLayout::of(model::load_robot_description(path, robot.model.string()));
  if (!layout.accepts(columns)) {
    throw UsageError("--columns: expected " + layout.choices() +
                     " (the robot's joints, or with its extra columns), found " + std::to_string(columns));
  }
}

// A count of joints (`mimic plot --max-joints`, `--torque-joints`): 1 to the robot's joint count.
inline void check_joint_count_option(const std::string& option, int count, int robot_joints) {
  if (count < 1 || count > robot_joints) {
    throw UsageError(option + ": expected 1 to " + std::to_string(robot_joints) +
                     " (the robot's joints), found " + std::to_string(count));
  }
}

}  // namespace mimic::app
