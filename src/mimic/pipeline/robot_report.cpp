#include "mimic/pipeline/robot_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/geometry/collision_data.hpp"
#include "mimic/geometry/collision_model.hpp"
#include "mimic/geometry/distances.hpp"
#include "mimic/model/robot.hpp"
#include "mimic/stability/support_polygon.hpp"

namespace mimic::pipeline {
namespace {

std::string number(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

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
                  axis.x(), axis.y(), axis.z(), number(m.lower_limit[j]).c_str(),
                  number(m.upper_limit[j]).c_str(), number(m.velocity_limit[j]).c_str(),
                  number(m.effort_limit[j]).c_str());
    out << line;
  }
  out << "held joints (" << d.held_joints.size() << ", fixed at their value):";
  for (const auto& held : d.held_joints) out << " " << held.name << "=" << number(held.value);
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
