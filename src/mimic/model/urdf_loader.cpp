// load_urdf: urdfdom parse -> immutable Model.
//
// The URDF tree is walked depth-first from the root link. A moving joint (revolute, continuous, prismatic)
// starts a new body; a fixed joint merges its child link into the current body: its inertia is added there
// (parallel-axis theorem) and the link stays reachable as a Frame. A held joint (LoadOptions::held_joints)
// is a fixed joint whose transform includes its motion at the held value. The bodies are then renumbered
// into the requested joint order (LoadOptions::joint_order) and must stay topologically sorted.
#include <console_bridge/console.h>
#include <urdf_model/model.h>
#include <urdf_parser/urdf_parser.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "mimic/core/error.hpp"
#include "mimic/model/model.hpp"

namespace mimic::model {
namespace {

using spatial::Inertia;
using spatial::SE3;

[[noreturn]] void fail(const std::string& file, const std::string& element, const std::string& what) {
  throw ModelError(input_error_message(file, element, what));
}

SE3 to_se3(const urdf::Pose& pose) {
  const spatial::Quat q(pose.rotation.w, pose.rotation.x, pose.rotation.y, pose.rotation.z);
  return SE3(q.normalized().toRotationMatrix(), Vec3(pose.position.x, pose.position.y, pose.position.z));
}

// Inertia of a link in its own link frame (the URDF <inertial> may be rotated).
Inertia to_inertia(const urdf::Inertial& in) {
  Mat3 i_c;
  i_c << in.ixx, in.ixy, in.ixz,  //
      in.ixy, in.iyy, in.iyz,     //
      in.ixz, in.iyz, in.izz;
  const SE3 placement = to_se3(in.origin);
  return placement.act(Inertia(in.mass, Vec3::Zero(), i_c));
}

// urdfdom refuses a file with an unknown joint type without saying which joint: find it ourselves so the
// error names the element.
std::string find_unknown_joint_type(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  static const std::regex joint_re(R"(<joint\b([^>]*)>)");
  static const std::regex name_re(R"re(\bname\s*=\s*"([^"]*)")re");
  static const std::regex type_re(R"re(\btype\s*=\s*"([^"]*)")re");
  static const std::set<std::string> known = {"revolute", "continuous", "prismatic",
                                              "fixed",    "floating",   "planar"};
  for (auto it = std::sregex_iterator(text.begin(), text.end(), joint_re); it != std::sregex_iterator();
       ++it) {
    const std::string attributes = (*it)[1];
    std::smatch name, type;
    if (std::regex_search(attributes, type, type_re) && !known.count(type[1])) {
      const std::string joint = std::regex_search(attributes, name, name_re) ? std::string(name[1]) : "?";
      return "joint '" + joint + "': unknown joint type '" + std::string(type[1]) + "'";
    }
  }
  return {};
}

// A body being built during the depth-first walk.
struct PendingBody {
  std::string link;
  int parent = -1;  // pending index of the parent body
  std::string joint;
  JointType type = JointType::kRevolute;
  Vec3 axis = Vec3::UnitZ();
  SE3 placement;  // joint frame in the parent body frame
  double lower = 0, upper = 0, velocity = 0, effort = 0;
  Inertia inertia;
};

struct PendingFrame {
  std::string name;
  int body;
  SE3 placement;
};

// The motion of a 1-DoF joint at `value` (rad or m) about / along its unit axis, in the joint frame.
SE3 joint_motion(const urdf::Joint& joint, double value) {
  const Vec3 axis = Vec3(joint.axis.x, joint.axis.y, joint.axis.z).normalized();
  if (joint.type == urdf::Joint::PRISMATIC) return SE3(Mat3::Identity(), axis * value);
  return SE3(Eigen::AngleAxisd(value, axis).toRotationMatrix(), Vec3::Zero());
}

class TreeBuilder {
 public:
  TreeBuilder(std::string file, RootType root, const std::vector<HeldJoint>& held)
      : file_(std::move(file)), root_(root) {
    for (const HeldJoint& h : held)
      if (!held_.emplace(h.name, h.value).second)
        fail(file_, "joint '" + h.name + "'", "held twice (held_joints)");
  }

  // body_link: `link` is the link of the moving body itself (not merged into it through a fixed joint).
  void walk(const urdf::LinkConstSharedPtr& link, int body, const SE3& link_in_body, bool body_link) {
    frames_.push_back({link->name, body, link_in_body});
    if (link->inertial) {
      bodies_[body].inertia += link_in_body.act(to_inertia(*link->inertial));
    } else if (body_link && body > 0) {
      // The root link may be massless (JVRC-1's base_link): its fixed children carry the mass, checked
      // once the walk is done (check_root_mass).
      fail(file_, "link '" + link->name + "'", "moving body has no <inertial>");
    }
    for (const auto& joint : link->child_joints) {
      const urdf::LinkConstSharedPtr child = find_child(link, joint->child_link_name);
      const SE3 joint_in_body = link_in_body * to_se3(joint->parent_to_joint_origin_transform);
      if (const auto held = held_.find(joint->name); held != held_.end()) {
        if (joint->type != urdf::Joint::REVOLUTE && joint->type != urdf::Joint::CONTINUOUS &&
            joint->type != urdf::Joint::PRISMATIC)
          fail(file_, "joint '" + joint->name + "'", "held (held_joints) but not a moving joint");
        walk(child, body, joint_in_body * joint_motion(*joint, held->second), false);
        held_used_.insert(joint->name);
        continue;
      }
      switch (joint->type) {
        case urdf::Joint::FIXED:
          walk(child, body, joint_in_body, false);
          break;
        case urdf::Joint::REVOLUTE:
        case urdf::Joint::CONTINUOUS:
        case urdf::Joint::PRISMATIC:
          walk(child, add_body(*joint, body, joint_in_body), SE3::Identity(), true);
          break;
        case urdf::Joint::FLOATING:
        case urdf::Joint::PLANAR:
          fail(file_, "joint '" + joint->name + "'",
               "unsupported joint type (" +
                   std::string(joint->type == urdf::Joint::FLOATING ? "floating" : "planar") +
                   "); only revolute, continuous, prismatic and fixed joints are supported (a floating "
                   "joint only as the one joint of a massless root link)");
        default:
          fail(file_, "joint '" + joint->name + "'", "unknown joint type");
      }
    }
  }

  void start(const urdf::LinkConstSharedPtr& root) {
    PendingBody body;
    body.link = root->name;
    bodies_.push_back(body);
    walk(root, 0, SE3::Identity(), true);
    for (const auto& [name, value] : held_)
      if (!held_used_.count(name))
        fail(file_, "joint '" + name + "'", "held (held_joints) but not a joint of the URDF");
    if (root_ == RootType::kFreeFlyer && !(bodies_[0].inertia.mass > 0.0))
      fail(file_, "link '" + root->name + "'",
           "the free-flyer's root body has no mass (no <inertial> on it or its fixed children)");
  }

  std::vector<PendingBody> bodies_;
  std::vector<PendingFrame> frames_;

 private:
  urdf::LinkConstSharedPtr find_child(const urdf::LinkConstSharedPtr& link, const std::string& name) const {
    for (const auto& child : link->child_links)
      if (child->name == name) return child;
    fail(file_, "link '" + name + "'", "child link not found");
  }

  int add_body(const urdf::Joint& joint, int parent, const SE3& placement) {
    PendingBody body;
    body.link = joint.child_link_name;
    body.parent = parent;
    body.joint = joint.name;
    body.type = joint.type == urdf::Joint::PRISMATIC ? JointType::kPrismatic : JointType::kRevolute;
    const Vec3 axis(joint.axis.x, joint.axis.y, joint.axis.z);
    if (axis.norm() < 1e-12) fail(file_, "joint '" + joint.name + "'", "zero <axis>");
    body.axis = axis.normalized();
    body.placement = placement;
    constexpr double inf = std::numeric_limits<double>::infinity();
    body.lower = -inf;
    body.upper = inf;
    body.velocity = inf;
    body.effort = inf;
    if (joint.limits) {
      if (joint.type != urdf::Joint::CONTINUOUS) {
        body.lower = joint.limits->lower;
        body.upper = joint.limits->upper;
      }
      // urdfdom reads an absent velocity / effort attribute as 0: treat that as "no limit".
      if (joint.limits->velocity > 0) body.velocity = joint.limits->velocity;
      if (joint.limits->effort > 0) body.effort = joint.limits->effort;
    } else if (joint.type != urdf::Joint::CONTINUOUS) {
      fail(file_, "joint '" + joint.name + "'", "revolute/prismatic joint without <limit>");
    }
    bodies_.push_back(body);
    return static_cast<int>(bodies_.size()) - 1;
  }

  std::string file_;
  RootType root_;
  std::map<std::string, double> held_;
  std::set<std::string> held_used_;
};

// The link the model starts from: the URDF's root, or the child of its floating joint when the root is a
// massless link whose one joint is floating (the "world" of simulator URDFs, G1's when uncommented).
urdf::LinkConstSharedPtr model_root(const urdf::LinkConstSharedPtr& root) {
  if (!root->inertial && root->child_joints.size() == 1 &&
      root->child_joints.front()->type == urdf::Joint::FLOATING && root->child_links.size() == 1)
    return root->child_links.front();
  return root;
}

AxisKind axis_kind(const Vec3& axis) {
  if (axis == Vec3::UnitX()) return AxisKind::kX;
  if (axis == Vec3::UnitY()) return AxisKind::kY;
  if (axis == Vec3::UnitZ()) return AxisKind::kZ;
  return AxisKind::kGeneric;
}

// new index of each pending body (pending body 0, the root, stays 0).
std::vector<int> body_order(const std::string& file, const std::vector<PendingBody>& bodies,
                            const std::vector<std::string>& joint_order) {
  const int n = static_cast<int>(bodies.size());
  std::vector<int> new_index(n);
  if (joint_order.empty()) {
    for (int b = 0; b < n; ++b) new_index[b] = b;  // depth-first order is topological
    return new_index;
  }
  std::map<std::string, int> pending_of_joint;
  for (int b = 1; b < n; ++b) pending_of_joint[bodies[b].joint] = b;
  std::set<std::string> requested;
  new_index[0] = 0;
  for (int j = 0; j < static_cast<int>(joint_order.size()); ++j) {
    const std::string& name = joint_order[j];
    const auto it = pending_of_joint.find(name);
    if (it == pending_of_joint.end())
      fail(file, "joint '" + name + "'", "required joint missing from the URDF (or not a moving joint)");
    if (!requested.insert(name).second) fail(file, "joint '" + name + "'", "listed twice in the joint order");
    new_index[it->second] = j + 1;
  }
  for (int b = 1; b < n; ++b)
    if (!requested.count(bodies[b].joint))
      fail(file, "joint '" + bodies[b].joint + "'", "moving joint not in the requested joint order");
  for (int b = 1; b < n; ++b)
    if (new_index[bodies[b].parent] >= new_index[b])
      fail(file, "joint '" + bodies[b].joint + "'",
           "requested joint order lists this joint before its parent");
  return new_index;
}

}  // namespace

Model load_urdf(const std::string& path, const LoadOptions& options) {
  if (!std::filesystem::exists(path)) fail(path, "", "no such file");
  // urdfdom reports parse errors on the console itself; mimic reports them once, as a ModelError.
  const console_bridge::LogLevel log_level = console_bridge::getLogLevel();
  console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_NONE);
  const urdf::ModelInterfaceSharedPtr urdf = urdf::parseURDFFile(path);
  console_bridge::setLogLevel(log_level);
  if (!urdf) {
    const std::string unknown = find_unknown_joint_type(path);
    if (!unknown.empty()) throw ModelError(input_error_message(path, "", unknown));
    fail(path, "", "not a valid URDF (urdfdom could not parse it)");
  }
  if (!urdf->getRoot()) fail(path, "", "URDF has no root link");
  const urdf::LinkConstSharedPtr root = model_root(urdf->getRoot());

  TreeBuilder tree(path, options.root, options.held_joints);
  tree.start(root);
  const std::vector<int> order = body_order(path, tree.bodies_, options.joint_order);

  Model model;
  model.name = urdf->getName();
  model.source_path = path;
  model.root = options.root;
  model.nbodies = static_cast<int>(tree.bodies_.size());
  model.nj = model.nbodies - 1;
  model.nq = model.nj + (model.has_free_flyer() ? 7 : 0);
  model.nv = model.nj + (model.has_free_flyer() ? 6 : 0);

  const int nb = model.nbodies;
  model.body_names.resize(nb);
  model.parents.assign(nb, -1);
  model.joint_placements.resize(nb);
  model.inertias.resize(nb);
  model.children.assign(nb, {});
  model.joint_types.assign(nb, JointType::kRevolute);
  model.axis_kinds.assign(nb, AxisKind::kGeneric);
  model.axes.assign(nb, Vec3::Zero());
  model.joint_names.resize(model.nj);
  model.lower_limit.resize(model.nj);
  model.upper_limit.resize(model.nj);
  model.velocity_limit.resize(model.nj);
  model.effort_limit.resize(model.nj);

  for (int p = 0; p < nb; ++p) {
    const PendingBody& src = tree.bodies_[p];
    const int b = order[p];
    model.body_names[b] = src.link;
    model.inertias[b] = src.inertia;
    if (p == 0) continue;
    model.parents[b] = order[src.parent];
    model.joint_placements[b] = src.placement;
    model.joint_types[b] = src.type;
    model.axes[b] = src.axis;
    model.axis_kinds[b] = axis_kind(src.axis);
    const int j = Model::joint_of_body(b);
    model.joint_names[j] = src.joint;
    model.lower_limit[j] = src.lower;
    model.upper_limit[j] = src.upper;
    model.velocity_limit[j] = src.velocity;
    model.effort_limit[j] = src.effort;
  }
  for (int b = 1; b < nb; ++b) model.children[model.parents[b]].push_back(b);
  for (const PendingFrame& f : tree.frames_) model.frames.push_back({f.name, order[f.body], f.placement});
  for (const AddedFrame& added : options.added_frames) {
    if (model.has_frame(added.name))
      fail(path, "frame '" + added.name + "'", "added frame has the name of a URDF link");
    if (!model.has_frame(added.link))
      fail(path, "frame '" + added.name + "'", "added frame hangs from '" + added.link + "', no link of it");
    const Frame& link = model.frames[static_cast<std::size_t>(model.frame_index(added.link))];
    model.frames.push_back({added.name, link.body, link.placement * added.placement});
  }
  return model;
}

}  // namespace mimic::model
