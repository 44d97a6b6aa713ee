#include "mimic/pipeline/describe.hpp"

#include <cmath>
#include <cstdio>
#include <optional>

#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/mocap/describe.hpp"
#include "mimic/mocap/load.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"

namespace mimic::pipeline {
namespace {

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

// The description's operational frames (position in `pose`, already computed in `data`) and soles.
void print_frames(const model::Model& m, const model::Data& data, const model::RobotDescription& description,
                  const std::string& pose, std::ostream& out) {
  out << "operational frames (position in " << pose << "):\n";
  const std::pair<const char*, std::string> frames[] = {{"right sole", description.frames.right_sole},
                                                        {"left sole", description.frames.left_sole},
                                                        {"right gripper", description.frames.right_gripper},
                                                        {"left gripper", description.frames.left_gripper},
                                                        {"gaze", description.frames.gaze}};
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
       {std::pair{"right", description.right_sole}, std::pair{"left", description.left_sole}}) {
    char line[160];
    std::snprintf(line, sizeof line,
                  "  %-5s sole rectangle: x in [%.3f, %.3f], y in [%.3f, %.3f] (sole frame)\n", side, r.x_min,
                  r.x_max, r.y_min, r.y_max);
    out << line;
  }
}

}  // namespace

void describe_robot(const std::string& urdf_path, const std::string& description_path, std::ostream& out) {
  // Load once to see which joints are there, then in OpenHRP order when it is HRP-2.
  model::Model m = model::load_urdf(urdf_path);
  const bool openhrp =
      has_all_openhrp_joints(m) && m.nj == static_cast<int>(model::openhrp_joint_names().size());
  if (openhrp) m = model::load_urdf(urdf_path, model::LoadOptions::hrp2());
  out << "robot '" << m.name << "' from " << urdf_path << "\n";
  out << "root: " << m.body_names[0] << (m.has_free_flyer() ? " (free-flyer)" : " (fixed base)")
      << ", nq = " << m.nq << ", nv = " << m.nv << "\n";
  print_joints(m, openhrp, out);
  char mass[64];
  std::snprintf(mass, sizeof mass, "total mass: %.4f kg\n", m.total_mass());
  out << mass;

  // The nominal pose of the description, when it matches this model.
  model::Data data(m);
  Eigen::VectorXd q = model::neutral(m);
  std::string pose = "the zero configuration";
  std::optional<model::RobotDescription> description;
  if (!description_path.empty()) {
    description = model::load_robot_description(description_path);
    bool matches = true;
    for (const auto& name : description->nominal_pose.joint_names) matches = matches && m.has_joint(name);
    if (matches) {
      q = description->nominal_q(m);
      pose = "half-sitting (" + description_path + ")";
    }
  }
  const spatial::Vec3 com = dynamics::center_of_mass(m, data, q);
  print_vector(out, ("centre of mass in " + pose + ": ").c_str(), com);
  out << " m\n";
  dynamics::update_frame_placements(m, data);
  if (description) print_frames(m, data, *description, pose, out);
}

void describe_clip(const std::string& path, std::string_view units, std::string_view up, std::ostream& out,
                   std::string_view units_option, std::string_view up_option) {
  mocap::LoadOptions load;
  load.unit = mocap::parse_unit_option(units, units_option);
  load.up = mocap::parse_up_option(up, up_option);
  mocap::describe_clip(path, out, load);
}

}  // namespace mimic::pipeline
