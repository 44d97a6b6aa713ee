// `mimic info FILE`: what a robot model or a mocap clip contains.
//  * .urdf: the joints in OpenHRP order (when the model has them) with their limits, the total mass, the
//    centre of mass in half-sitting and the foot / hand / head frames (the robot description names them);
//  * .bvh / .c3d: the clip summary of mimic::mocap::describe_clip (--units / --up override the guesses).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

#include "command.hpp"
#include "mimic/core/error.hpp"
#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/mocap/describe.hpp"
#include "mimic/mocap/load.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"

namespace {

using namespace mimic;

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

std::string limit_text(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

bool has_all_openhrp_joints(const model::Model& m) {
  for (const auto& name : model::openhrp_joint_names())
    if (!m.has_joint(name)) return false;
  return true;
}

void print_joints(const model::Model& m, bool openhrp, std::ostream& out) {
  out << "joints (" << m.nj << (openhrp ? ", OpenHRP order" : ", URDF depth-first order") << "):\n";
  out << "  idx  name            parent link      axis              lower [rad]  upper [rad]  velocity  "
         "effort\n";
  for (int j = 0; j < m.nj; ++j) {
    const int b = model::Model::body_of_joint(j);
    const auto& axis = m.axes[b];
    char line[256];
    std::snprintf(line, sizeof line, "  %3d  %-15s %-16s %s(%5.2f %5.2f %5.2f) %12s %12s %9s %7s\n", j,
                  m.joint_names[j].c_str(), m.body_names[m.parents[b]].c_str(),
                  m.joint_types[b] == model::JointType::kPrismatic ? "P" : "R", axis.x(), axis.y(), axis.z(),
                  limit_text(m.lower_limit[j]).c_str(), limit_text(m.upper_limit[j]).c_str(),
                  limit_text(m.velocity_limit[j]).c_str(), limit_text(m.effort_limit[j]).c_str());
    out << line;
  }
}

void print_vector(std::ostream& out, const char* label, const spatial::Vec3& x) {
  char line[160];
  std::snprintf(line, sizeof line, "%s(%.5f, %.5f, %.5f)", label, x.x(), x.y(), x.z());
  out << line;
}

int describe_urdf(const std::string& path, const std::string& robot_config_path) {
  // Load once to see which joints are there, then in OpenHRP order when it is HRP-2.
  model::Model m = model::load_urdf(path);
  const bool openhrp =
      has_all_openhrp_joints(m) && m.nj == static_cast<int>(model::openhrp_joint_names().size());
  if (openhrp) m = model::load_urdf(path, model::LoadOptions::hrp2());
  std::ostream& out = std::cout;
  out << "robot '" << m.name << "' from " << path << "\n";
  out << "root: " << m.body_names[0] << (m.has_free_flyer() ? " (free-flyer)" : " (fixed base)")
      << ", nq = " << m.nq << ", nv = " << m.nv << "\n";
  print_joints(m, openhrp, out);
  char mass[64];
  std::snprintf(mass, sizeof mass, "total mass: %.4f kg\n", m.total_mass());
  out << mass;

  // Half-sitting from the robot configuration, when it matches this model.
  model::Data data(m);
  Eigen::VectorXd q = model::neutral(m);
  std::string pose = "the zero configuration";
  std::optional<model::RobotDescription> config;
  if (!robot_config_path.empty()) {
    config = model::load_robot_description(robot_config_path);
    bool matches = true;
    for (const auto& name : config->nominal_pose.joint_names) matches = matches && m.has_joint(name);
    if (matches) {
      q = config->nominal_q(m);
      pose = "half-sitting (" + robot_config_path + ")";
    }
  }
  const spatial::Vec3 com = dynamics::center_of_mass(m, data, q);
  print_vector(out, ("centre of mass in " + pose + ": ").c_str(), com);
  out << " m\n";
  dynamics::update_frame_placements(m, data);

  if (config) {
    out << "operational frames (position in " << pose << "):\n";
    const std::pair<const char*, std::string> frames[] = {{"right sole", config->frames.right_sole},
                                                          {"left sole", config->frames.left_sole},
                                                          {"right gripper", config->frames.right_gripper},
                                                          {"left gripper", config->frames.left_gripper},
                                                          {"gaze", config->frames.gaze}};
    for (const auto& [role, name] : frames) {
      char head[96];
      std::snprintf(head, sizeof head, "  %-13s %-10s ", role, name.c_str());
      out << head;
      if (!m.has_frame(name)) {
        out << "(not in this model)\n";
        continue;
      }
      const int f = m.frame_index(name);
      const model::Frame& frame = m.frames[f];
      print_vector(out, ("in " + m.body_names[frame.body] + " at ").c_str(), frame.placement.p);
      print_vector(out, ", world ", data.oMf[f].p);
      out << "\n";
    }
    for (const auto& [side, r] :
         {std::pair{"right", config->right_sole}, std::pair{"left", config->left_sole}}) {
      char line[160];
      std::snprintf(line, sizeof line,
                    "  %-5s sole rectangle: x in [%.3f, %.3f], y in [%.3f, %.3f] (sole frame)\n", side,
                    r.x_min, r.x_max, r.y_min, r.y_max);
      out << line;
    }
  }
  return app::kOk;
}

std::function<int()> setup_info(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "info",
      "Describe a robot model (.urdf: joints in OpenHRP order with limits, total mass, centre of mass in "
      "half-sitting, foot / hand / head frames) or a motion-capture clip (.bvh, .c3d: skeleton or markers, "
      "frames, rate, units)");
  struct Options {
    std::string file;
    std::string robot_config = model::default_robot_description_path();
    std::string units = "auto", up = "auto";
  };
  auto opt = std::make_shared<Options>();
  cmd->add_option("file", opt->file, "A .urdf, .bvh or .c3d file")->required();
  cmd->add_option("--robot-config", opt->robot_config,
                  "Robot description YAML giving the half-sitting pose and the frame names (default: "
                  "config/robots/hrp2.yaml)");
  // The same overrides as `mimic retarget`, so that a guess `info` reports wrong can be checked fixed.
  cmd->add_option("--units", opt->units,
                  "Clip only: length unit of the clip, auto|m|dm|cm|mm|inch|cmu (default auto)");
  cmd->add_option("--up", opt->up,
                  "Clip only: up axis of the clip, auto|x|y|z (or +y, -z ...) (default auto)");
  return [opt]() -> int {
    const std::string ext = lower_extension(opt->file);
    if (ext == ".urdf") return describe_urdf(opt->file, opt->robot_config);
    if (ext == ".bvh" || ext == ".c3d") {
      mocap::LoadOptions load;
      load.unit = mocap::parse_unit_option(opt->units, "--units");
      load.up = mocap::parse_up_option(opt->up, "--up");
      mocap::describe_clip(opt->file, std::cout, load);
      return app::kOk;
    }
    throw InputError(
        input_error_message(opt->file, "", "unknown file type '" + ext + "' (expected .urdf, .bvh or .c3d)"));
  };
}

MIMIC_REGISTER_COMMAND("info", setup_info);

}  // namespace
