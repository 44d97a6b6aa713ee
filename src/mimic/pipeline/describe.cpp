#include "mimic/pipeline/describe.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <tuple>

#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/geometry/collision_data.hpp"
#include "mimic/geometry/collision_model.hpp"
#include "mimic/geometry/distances.hpp"
#include "mimic/mocap/describe.hpp"
#include "mimic/mocap/load.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/stability/support_polygon.hpp"

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

// --- mimic info --robot: the robot as its description loads it ---

std::string vec(const spatial::Vec3& x) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%.5f, %.5f, %.5f)", x.x(), x.y(), x.z());
  return buf;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : " ") + name;
  return text.empty() ? "(none)" : text;
}

void print_model(const model::Model& m, const model::RobotDescription& d, std::ostream& out) {
  out << "robot '" << m.name << "' from " << m.source_path << " (description " << d.source_path << ")\n";
  out << "root: " << m.body_names[0] << (m.has_free_flyer() ? " (free-flyer)" : " (fixed base)")
      << ", nq = " << m.nq << ", nv = " << m.nv << "\n";
  out << "joints (" << m.nj << ", the description's joint_order):\n";
  out << "  idx  name                        parent link                 axis                 lower [rad]  "
         "upper [rad]  velocity   effort\n";
  for (int j = 0; j < m.nj; ++j) {
    const int b = model::Model::body_of_joint(j);
    const auto& axis = m.axes[static_cast<std::size_t>(b)];
    char line[320];
    std::snprintf(line, sizeof line, "  %3d  %-27s %-27s %s(%5.2f %5.2f %5.2f) %12s %12s %9s %8s\n", j,
                  m.joint_names[static_cast<std::size_t>(j)].c_str(),
                  m.body_names[static_cast<std::size_t>(m.parents[static_cast<std::size_t>(b)])].c_str(),
                  m.joint_types[static_cast<std::size_t>(b)] == model::JointType::kPrismatic ? "P" : "R",
                  axis.x(), axis.y(), axis.z(), limit_text(m.lower_limit[j]).c_str(),
                  limit_text(m.upper_limit[j]).c_str(), limit_text(m.velocity_limit[j]).c_str(),
                  limit_text(m.effort_limit[j]).c_str());
    out << line;
  }
  out << "held joints (" << d.held_joints.size() << ", fixed at their value):";
  for (const auto& held : d.held_joints) out << " " << held.name << "=" << limit_text(held.value);
  out << "\n";
  char mass[64];
  std::snprintf(mass, sizeof mass, "total mass: %.4f kg\n", m.total_mass());
  out << mass;
  out << "groups:\n";
  for (const char* group : {"right_leg", "left_leg", "torso", "neck", "right_arm", "left_arm"})
    out << "  " << group << ": " << joined(d.group_joints(group)) << "\n";
  out << "  right hand: " << joined(d.groups.right_arm.hand)
      << "; left hand: " << joined(d.groups.left_arm.hand) << "\n";
}

void print_collision(const model::Model& m, const geometry::CollisionModel& c, std::ostream& out) {
  int capsules = 0;
  for (const auto& s : c.shapes) capsules += s.kind == geometry::ShapeKind::kCapsule;
  out << "collision model: " << c.shapes.size() << " shapes (" << capsules << " capsules, "
      << c.shapes.size() - static_cast<std::size_t>(capsules) << " boxes), " << c.pairs.size()
      << " checked pairs, " << c.corners.size() << " sole corners\n";
  for (const auto& s : c.shapes) {
    char line[256];
    if (s.kind == geometry::ShapeKind::kCapsule)
      std::snprintf(line, sizeof line, "  %-24s capsule r %.4f, length %.4f (body %s)\n", s.link.c_str(),
                    s.radius, (s.b - s.a).norm(), m.body_names[static_cast<std::size_t>(s.body)].c_str());
    else
      std::snprintf(line, sizeof line, "  %-24s box %.4f x %.4f x %.4f (body %s)\n", s.link.c_str(),
                    2 * s.half.x(), 2 * s.half.y(), 2 * s.half.z(),
                    m.body_names[static_cast<std::size_t>(s.body)].c_str());
    out << line;
  }
}

void print_standing(const model::Model& m, const model::RobotDescription& d,
                    const geometry::CollisionModel& c, std::ostream& out) {
  model::Data data(m);
  const Eigen::VectorXd q = d.nominal_q(m);
  const spatial::Vec3 com = dynamics::center_of_mass(m, data, q);
  dynamics::update_frame_placements(m, data);
  out << "standing pose report (nominal_pose, waist " << vec(d.nominal_pose.waist) << "):\n";
  const auto& right = data.oMf[static_cast<std::size_t>(m.frame_index(d.frames.right_sole))];
  const auto& left = data.oMf[static_cast<std::size_t>(m.frame_index(d.frames.left_sole))];
  for (const auto& [side, frame, pose] :
       {std::tuple{"right", d.frames.right_sole, right}, std::tuple{"left", d.frames.left_sole, left}}) {
    const double tilt = std::acos(std::clamp(pose.R(2, 2), -1.0, 1.0));
    char line[200];
    std::snprintf(line, sizeof line, "  %-5s sole %-12s at %s, tilt %.2e rad\n", side, frame.c_str(),
                  vec(pose.p).c_str(), tilt);
    out << line;
  }
  const auto polygon = stability::SupportPolygon::of_feet(model::ContactPhase::kDoubleSupport, right, left,
                                                          d.right_sole, d.left_sole);
  char line[200];
  std::snprintf(line, sizeof line, "  centre of mass %s, %.4f m inside the support polygon of both feet\n",
                vec(com).c_str(), polygon.signed_distance(com.head<2>()));
  out << line;
  if (c.pairs.empty()) return;
  geometry::CollisionData cdata(m, c);
  geometry::compute_distances(m, data, c, cdata, q);
  Eigen::Index pair = 0;
  const double distance = cdata.distance.minCoeff(&pair);
  std::snprintf(line, sizeof line, "  closest checked pair %s at %.4f m; lowest sole corner at z = %.2e m\n",
                c.pair_name(static_cast<int>(pair)).c_str(), distance, cdata.corner_height.minCoeff());
  out << line;
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

mocap::LoadOptions clip_load_options(std::string_view units, std::string_view up,
                                     std::string_view units_option, std::string_view up_option) {
  mocap::LoadOptions load;
  load.unit = mocap::parse_unit_option(units, units_option);
  load.up = mocap::parse_up_option(up, up_option);
  return load;
}

void describe_clip(const std::string& path, std::string_view units, std::string_view up, std::ostream& out,
                   std::string_view units_option, std::string_view up_option) {
  mocap::describe_clip(path, out, clip_load_options(units, up, units_option, up_option));
}

void describe_robot_description(const std::string& description_path, const std::string& urdf,
                                std::ostream& out) {
  const model::Robot robot = model::load_robot(description_path, std::nullopt, urdf);
  const geometry::CollisionModel collision = geometry::build_collision_model(robot.model, robot.description);
  print_model(robot.model, robot.description, out);
  out << "operational frames: right sole " << robot.description.frames.right_sole << ", left sole "
      << robot.description.frames.left_sole << ", right gripper " << robot.description.frames.right_gripper
      << ", left gripper " << robot.description.frames.left_gripper << ", gaze "
      << robot.description.frames.gaze << "\n";
  for (const auto& [side, r] :
       {std::pair{"right", robot.description.right_sole}, std::pair{"left", robot.description.left_sole}}) {
    char line[160];
    std::snprintf(line, sizeof line,
                  "  %-5s sole rectangle: x in [%.3f, %.3f], y in [%.3f, %.3f] (sole frame)\n", side, r.x_min,
                  r.x_max, r.y_min, r.y_max);
    out << line;
  }
  print_collision(robot.model, collision, out);
  print_standing(robot.model, robot.description, collision, out);
}

}  // namespace mimic::pipeline
