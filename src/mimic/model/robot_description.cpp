// Reading of the robot description YAML (config/robots/hrp2.yaml, docs/robot-description.md) through
// core's strict reader: unknown, duplicate and missing keys, types and ranges are checked there, with
// errors "file:line N: key.path: ..."; this file adds what only a description knows (joints and links of
// its URDF, chains, groups, rectangles).
#include "mimic/model/robot_description.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <numbers>

#include "mimic/core/data_dir.hpp"
#include "mimic/core/error.hpp"
#include "mimic/core/strict_yaml.hpp"
#include "mimic/core/text_file.hpp"
#include "mimic/spatial/rpy.hpp"

namespace mimic::model {
namespace {

namespace fs = std::filesystem;
using core::StrictMapping;
using core::YamlListItem;

// The group names, in the order of JointGroups (the keys of `groups` and the words of `commands`).
constexpr std::array<std::string_view, 6> kGroupNames = {"right_leg", "left_leg",  "torso",
                                                         "neck",      "right_arm", "left_arm"};
// Six joints from the hip to the ankle: the analytic leg IK (stability/leg_ik) and the leg refits need
// exactly this structure.
constexpr std::size_t kLegJoints = 6;

// The environment variable naming the folder of third-party robots (`${MIMIC_ROBOTS_DIR}` in a path of a
// description); unset, it is ../shared/robots next to the data directory (core::data_dir: in the build
// tree the source tree, where the tests find them; an installed mimic has none there, so its users point
// the variable or --model at their copy).
constexpr std::string_view kRobotsDirVariable = "MIMIC_ROBOTS_DIR";

std::string expand_robots_dir(const std::string& text) {
  const std::string token = "${" + std::string(kRobotsDirVariable) + "}";
  const auto at = text.find(token);
  if (at == std::string::npos) return text;
  const char* env = std::getenv(std::string(kRobotsDirVariable).c_str());
  const std::string dir = env && *env
                              ? std::string(env)
                              : (core::data_dir() / ".." / "shared" / "robots").lexically_normal().string();
  return text.substr(0, at) + dir + text.substr(at + token.size());
}

// A path of the description, relative to the description's folder.
std::string resolve_description_path(const std::string& description, const fs::path& value) {
  return (value.is_absolute() ? value : fs::path(description).parent_path() / value).lexically_normal();
}

// The required list of names `key` of `map`, each name once.
std::vector<YamlListItem> name_list(const StrictMapping& map, std::string_view key) {
  map.require(key);
  std::vector<YamlListItem> items;
  map.read(key, items);
  for (auto item = items.begin(); item != items.end(); ++item) {
    if (std::any_of(items.begin(), item, [&](const YamlListItem& seen) { return seen.text == item->text; }))
      map.fail(key, item->line, "'" + item->text + "' listed twice");
  }
  return items;
}

// walking: {max_forward: ..., ...}: each value optional, lengths and durations > 0 (a zero reach or a
// zero swing would make every step infeasible), the sole gap, swing height and waist lowering >= 0, the turn
// in (0, pi] (a larger relative yaw is the same foot pose turned the other way).
WalkingDescription read_walking(const StrictMapping& top) {
  const auto map = top.child(
      "walking", {"max_forward", "max_backward", "max_lateral", "min_width", "max_turn", "min_single_support",
                  "max_single_support", "min_double_support", "step_height", "waist_lowering"});
  const auto read = [&](std::string_view key, const core::NumberRange& range) {
    double value = 0.0;
    return map.read(key, value, range) ? std::optional<double>(value) : std::nullopt;
  };
  const auto length = core::NumberRange::positive("a length (m)");
  const core::NumberRange gap{0.0, core::NumberRange::kInfinity, false, false, "a length (m)"};
  const auto duration = core::NumberRange::positive("a duration (s)");
  WalkingDescription walking;
  walking.max_forward = read("max_forward", length);
  walking.max_backward = read("max_backward", length);
  walking.max_lateral = read("max_lateral", gap);
  walking.min_width = read("min_width", gap);
  walking.max_turn = read("max_turn", {0.0, std::numbers::pi, true, false, "an angle (rad)"});
  walking.min_single_support = read("min_single_support", duration);
  walking.max_single_support = read("max_single_support", duration);
  walking.min_double_support = read("min_double_support", duration);
  walking.step_height = read("step_height", gap);
  walking.waist_lowering = read("waist_lowering", gap);
  return walking;
}

// Checks names against the URDF the description names (loaded in its own, depth-first joint order).
class UrdfNames {
 public:
  explicit UrdfNames(const Model& model) : model_(model) {}

  // The joint `item` of the list `key` of `map`.
  std::string joint(const StrictMapping& map, std::string_view key, const YamlListItem& item) const {
    if (!model_.has_joint(item.text))
      map.fail(key, item.line, "no joint '" + item.text + "' in " + model_.source_path);
    return item.text;
  }

  bool has_frame(const std::string& name) const { return model_.has_frame(name); }

  // The link `item` of the list `key` of `map`.
  std::string link(const StrictMapping& map, std::string_view key, const YamlListItem& item) const {
    if (!model_.has_frame(item.text))
      map.fail(key, item.line, "no link '" + item.text + "' in " + model_.source_path);
    return item.text;
  }

  // The link named by the required key `key` of `map`.
  std::string frame(const StrictMapping& map, std::string_view key) const {
    map.require(key);
    YamlListItem item{"", map.line(key)};
    map.read(key, item.text);
    return link(map, key, item);
  }

  // A chain from the root outwards: each joint moves a child body of the previous joint's body.
  std::vector<std::string> chain(const StrictMapping& map, std::string_view key,
                                 const std::vector<YamlListItem>& items) const {
    std::vector<std::string> out;
    int previous = -1;
    for (const auto& item : items) {
      const int j = model_.joint_index(joint(map, key, item));
      if (previous >= 0 && model_.parents[Model::body_of_joint(j)] != Model::body_of_joint(previous))
        map.fail(key, item.line,
                 "'" + item.text + "' does not follow '" + out.back() +
                     "' in the URDF (a group is a chain of joints from the root outwards)");
      previous = j;
      out.push_back(item.text);
    }
    return out;
  }

 private:
  const Model& model_;
};

// The group owning each joint read so far: a joint belongs to one group at most (the command sets would
// otherwise count it twice).
class GroupOwners {
 public:
  // The joints `items` of the list `key` of `map`, which belong to `group`.
  void claim(const StrictMapping& map, std::string_view key, const std::vector<YamlListItem>& items,
             std::string_view group) {
    for (const auto& item : items) {
      const auto [it, fresh] = owner_.emplace(item.text, std::string(group));
      if (!fresh) map.fail(key, item.line, "joint '" + item.text + "' is already in groups." + it->second);
    }
  }

 private:
  std::map<std::string, std::string> owner_;
};

void read_groups(const UrdfNames& urdf, const StrictMapping& top, JointGroups& groups) {
  const auto map = top.child("groups", kGroupNames);
  for (const auto group : kGroupNames) map.require(group);
  GroupOwners owners;
  // The list `key` of `parent`: a chain of joints of `group`, each in no other group; a leg is six joints.
  const auto chain = [&](std::string_view group, const StrictMapping& parent, std::string_view key,
                         bool leg) {
    const auto items = name_list(parent, key);
    if (leg && items.size() != kLegJoints)
      parent.fail(key, "expected " + std::to_string(kLegJoints) +
                           " joints from the hip to the ankle, found " + std::to_string(items.size()));
    auto joints = urdf.chain(parent, key, items);
    owners.claim(parent, key, items, group);
    return joints;
  };
  const auto arm = [&](std::string_view key) {
    const auto arm_map = map.child(key, {"joints", "hand"});
    arm_map.require("joints");
    arm_map.require("hand");
    ArmGroup group;
    group.joints = chain(key, arm_map, "joints", false);
    if (group.joints.empty()) arm_map.fail("joints", "expected at least one joint");
    const auto hand = name_list(arm_map, "hand");
    for (const auto& item : hand) group.hand.push_back(urdf.joint(arm_map, "hand", item));
    owners.claim(arm_map, "hand", hand, key);
    return group;
  };
  groups.right_leg = chain("right_leg", map, "right_leg", true);
  groups.left_leg = chain("left_leg", map, "left_leg", true);
  groups.torso = chain("torso", map, "torso", false);
  groups.neck = chain("neck", map, "neck", false);
  groups.right_arm = arm("right_arm");
  groups.left_arm = arm("left_arm");
}

std::vector<std::string> read_command(const StrictMapping& map, std::string_view key) {
  std::vector<std::string> out;
  for (const auto& item : name_list(map, key)) {
    if (std::find(kGroupNames.begin(), kGroupNames.end(), item.text) == kGroupNames.end())
      map.fail(key, item.line,
               "unknown group '" + item.text +
                   "' (expected: right_leg, left_leg, torso, neck, right_arm, left_arm)");
    out.push_back(item.text);
  }
  return out;
}

SoleRectangle read_sole(const StrictMapping& soles, std::string_view key) {
  soles.require(key);
  const auto map = soles.child(key, {"x_min", "x_max", "y_min", "y_max"});
  SoleRectangle r;
  for (const auto& [name, value] :
       {std::pair{"x_min", &r.x_min}, {"x_max", &r.x_max}, {"y_min", &r.y_min}, {"y_max", &r.y_max}}) {
    map.require(name);
    map.read(name, *value);
  }
  if (!(r.x_min < r.x_max && r.y_min < r.y_max)) soles.fail(key, "empty rectangle (min >= max)");
  return r;
}

void read_nominal_pose(const UrdfNames& urdf, const StrictMapping& top, std::string_view key,
                       NominalPose& pose) {
  const auto map = top.child(key, {"waist", "joints"});
  map.require("waist");
  map.require("joints");
  map.read("waist", std::span<double>(pose.waist.data(), 3));
  const auto joints = map.child_with_any_keys("joints");
  std::vector<double> values;
  for (const auto& name : joints.keys()) {
    urdf.joint(map, "joints", {name, joints.line(name)});
    pose.joint_names.push_back(name);
    joints.read(name, values.emplace_back());
  }
  pose.joints = Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
}

// held_joints: {JOINT: value, ...}: moving URDF joints the model holds (LoadOptions::held_joints).
std::vector<HeldJoint> read_held_joints(const UrdfNames& urdf, const StrictMapping& top) {
  std::vector<HeldJoint> held;
  const auto joints = top.child_with_any_keys("held_joints");
  for (const auto& name : joints.keys()) {
    urdf.joint(top, "held_joints", {name, joints.line(name)});
    joints.read(name, held.emplace_back(HeldJoint{name, 0.0}).value);
  }
  return held;
}

// added_frames: {NAME: {link: LINK, xyz: [x, y, z], rpy: [r, p, y]}}: frames the URDF lacks.
std::vector<AddedFrame> read_added_frames(const UrdfNames& urdf, const StrictMapping& top) {
  std::vector<AddedFrame> added;
  const auto frames = top.child_with_any_keys("added_frames");
  for (const auto& name : frames.keys()) {
    const auto map = frames.child(name, {"link", "xyz", "rpy"});
    for (const auto key : {"link", "xyz", "rpy"}) map.require(key);
    if (urdf.has_frame(name)) frames.fail(name, "'" + name + "' is already a link of the URDF");
    AddedFrame frame;
    frame.name = name;
    frame.link = urdf.frame(map, "link");
    spatial::Vec3 xyz, rpy;
    map.read("xyz", std::span<double>(xyz.data(), 3));
    map.read("rpy", std::span<double>(rpy.data(), 3));
    frame.placement = spatial::SE3(spatial::rpy_to_rotation(rpy), xyz);
    added.push_back(frame);
  }
  return added;
}

// collision: {shapes: [{link, capsule: {a, b, radius}} | {link, box: {centre, size}}], exclude: [[l1, l2]]}
void read_collision(core::YamlDocument& document, const UrdfNames& urdf, const StrictMapping& top,
                    CollisionDescription& collision) {
  const auto map = top.child("collision", {"shapes", "exclude"});
  if (map.has("shapes")) {
    const YAML::Node& shapes = map.node("shapes");
    if (!shapes.IsSequence())
      map.fail("shapes", "expected a list of shapes, found " + core::describe_yaml_value(shapes));
    for (const auto& node : shapes) {
      // Items are not numbered in the key path: the line tells which one.
      const int line = core::YamlDocument::line_of(node);
      const StrictMapping item(document, node, map.key_path("shapes"), line > 0 ? line : map.line("shapes"),
                               {"link", "capsule", "box"});
      if (item.has("capsule") == item.has("box"))
        item.fail_mapping("give one of 'capsule' or 'box' (the supported shapes)");
      CollisionShapeSpec spec;
      spec.link = urdf.frame(item, "link");
      const auto length = core::NumberRange::positive("a length");
      if (item.has("capsule")) {
        const auto capsule = item.child("capsule", {"a", "b", "radius"});
        for (const auto key : {"a", "b", "radius"}) capsule.require(key);
        spec.kind = CollisionShapeSpec::Kind::kCapsule;
        capsule.read("a", std::span<double>(spec.a.data(), 3));
        capsule.read("b", std::span<double>(spec.b.data(), 3));
        capsule.read("radius", spec.radius, length);
      } else {
        const auto box = item.child("box", {"centre", "size"});
        for (const auto key : {"centre", "size"}) box.require(key);
        spec.kind = CollisionShapeSpec::Kind::kBox;
        box.read("centre", std::span<double>(spec.centre.data(), 3));
        box.read("size", std::span<double>(spec.size.data(), 3), length);
      }
      collision.shapes.push_back(spec);
    }
  }
  if (map.has("exclude")) {
    const YAML::Node& exclude = map.node("exclude");
    if (!exclude.IsSequence())
      map.fail("exclude", "expected a list of link pairs, found " + core::describe_yaml_value(exclude));
    for (const auto& pair : exclude) {
      const int line = core::YamlDocument::line_of(pair);
      if (!pair.IsSequence() || pair.size() != 2 || !pair[0].IsScalar() || !pair[1].IsScalar())
        map.fail("exclude", line,
                 "expected a pair of link names, e.g. [RLEG_LINK5, LLEG_LINK5], found " +
                     core::describe_yaml_value(pair));
      const auto link = [&](const YAML::Node& name) {
        return urdf.link(map, "exclude", {name.Scalar(), line});
      };
      collision.exclude.emplace_back(link(pair[0]), link(pair[1]));
    }
  }
}

// Each leg of the description is the chain the leg IK finds from its sole (stability/leg_ik walks from the
// sole frame up to the root body): its first joint hangs from the root body and the sole frame from its last
// joint. `sole_key` is the key of `frames` that names the sole, `leg_key` the group.
void check_leg_reaches_sole(const Model& model, const StrictMapping& frames, std::string_view sole_key,
                            const std::string& sole, std::string_view leg_key,
                            const std::vector<std::string>& leg) {
  const int first = Model::body_of_joint(model.joint_index(leg.front()));
  const int last = Model::body_of_joint(model.joint_index(leg.back()));
  if (model.parents[static_cast<std::size_t>(first)] != 0)
    frames.fail(sole_key, "groups." + std::string(leg_key) + " starts at '" + leg.front() +
                              "', which does not hang from the root body (a leg is hip to ankle)");
  const int body = model.frames[static_cast<std::size_t>(model.frame_index(sole))].body;
  if (body != last)
    frames.fail(sole_key, "'" + sole + "' does not hang from '" + leg.back() +
                              "', the last joint of groups." + std::string(leg_key) +
                              " (the leg IK needs the sole right below the ankle)");
}

// joint_order, extra_columns, groups and commands of a file written before the description: taken from the
// default description, with their names checked against this file's URDF.
void inherit_structure(const std::string& path, const Model& model, RobotDescription& description) {
  const RobotDescription& fallback = default_robot_description();
  description.joint_order = fallback.joint_order;
  description.extra_columns = fallback.extra_columns;
  description.groups = fallback.groups;
  description.retarget_groups = fallback.retarget_groups;
  description.smooth_groups = fallback.smooth_groups;
  const auto check = [&](const std::vector<std::string>& joints) {
    for (const auto& joint : joints)
      if (!model.has_joint(joint))
        throw InputError(input_error_message(path, "",
                                             "no joint_order or groups given, so they come from " +
                                                 fallback.source_path + ", whose joint '" + joint +
                                                 "' is not in " + model.source_path));
  };
  check(description.joint_order);
  for (const std::string_view group : kGroupNames) check(description.group_joints(group));
}

}  // namespace

const std::vector<std::string>& RobotDescription::group_joints(std::string_view group) const {
  if (group == "right_leg") return groups.right_leg;
  if (group == "left_leg") return groups.left_leg;
  if (group == "torso") return groups.torso;
  if (group == "neck") return groups.neck;
  if (group == "right_arm") return groups.right_arm.joints;
  if (group == "left_arm") return groups.left_arm.joints;
  throw ModelError(input_error_message(source_path, "groups", "no group '" + std::string(group) + "'"));
}

std::vector<std::string> RobotDescription::command_joints(std::string_view command) const {
  const std::vector<std::string>* names = command == "retarget" ? &retarget_groups
                                          : command == "smooth" ? &smooth_groups
                                                                : nullptr;
  if (!names)
    throw ModelError(
        input_error_message(source_path, "commands", "no command '" + std::string(command) + "'"));
  std::vector<std::string> joints;
  for (const auto& group : *names) {
    const auto& g = group_joints(group);
    joints.insert(joints.end(), g.begin(), g.end());
  }
  return joints;
}

std::vector<std::string> RobotDescription::output_columns(int columns) const {
  const auto joints = static_cast<int>(joint_order.size());
  const auto wide = joints + static_cast<int>(extra_columns.size());
  if (columns != joints && columns != wide)
    throw InputError(input_error_message(source_path, "",
                                         "a .pos of this robot has " + std::to_string(joints) + " or " +
                                             std::to_string(wide) + " columns, not " +
                                             std::to_string(columns)));
  std::vector<std::string> names = joint_order;
  names.insert(names.end(), extra_columns.begin(), extra_columns.begin() + (columns - joints));
  return names;
}

Eigen::VectorXd RobotDescription::nominal_q(const Model& model) const {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  if (model.has_free_flyer()) {
    q.head<3>() = nominal_pose.waist;
    q[6] = 1.0;  // identity quaternion (x y z w)
  }
  for (size_t k = 0; k < nominal_pose.joint_names.size(); ++k) {
    if (!model.has_joint(nominal_pose.joint_names[k]))
      throw ModelError(input_error_message(
          source_path, "nominal_pose.joints",
          "joint '" + nominal_pose.joint_names[k] + "' is not in the model " + model.source_path));
    q[model.idx_q(model.joint_index(nominal_pose.joint_names[k]))] =
        nominal_pose.joints[static_cast<Eigen::Index>(k)];
  }
  return q;
}

RobotDescription load_robot_description(const std::string& path, const std::string& urdf_override) {
  if (!fs::exists(path)) throw InputError(input_error_message(path, "", "no such file"));
  core::YamlDocument document(core::read_text_file(path), path);
  const YAML::Node& root = document.root();
  const int root_line = std::max(core::YamlDocument::line_of(root), 1);
  const StrictMapping top(
      document, root, "", root_line,
      {"urdf", "frames", "soles", "joint_order", "extra_columns", "groups", "commands", "nominal_pose",
       "half_sitting", "collision", "held_joints", "added_frames", "mesh_root", "walking", "retiming"});
  for (const auto key : {"urdf", "frames", "soles"}) top.require(key);
  // half_sitting is the name of nominal_pose in files written before the description (HRP-2 only had one
  // nominal pose); both at once would be ambiguous.
  if (top.has("nominal_pose") && top.has("half_sitting"))
    top.fail("half_sitting", "give nominal_pose or its old name half_sitting, not both");
  if (!top.has("half_sitting")) top.require("nominal_pose");
  // The structure keys come together: a file with some of them is a description with a key forgotten, a
  // file with none is a configuration from before the description.
  constexpr std::array<std::string_view, 4> kStructure = {"joint_order", "extra_columns", "groups",
                                                          "commands"};
  const bool legacy =
      std::none_of(kStructure.begin(), kStructure.end(), [&](auto key) { return top.has(key); });
  if (!legacy)
    for (const auto key : kStructure) top.require(key);

  RobotDescription description;
  description.source_path = path;
  if (urdf_override.empty()) {
    std::string urdf_text;
    top.read("urdf", urdf_text);
    description.urdf = resolve_description_path(path, expand_robots_dir(urdf_text));
    if (!fs::exists(description.urdf))
      top.fail("urdf", "no such file '" + description.urdf +
                           "' (give the robot's URDF with --model or the job's robot.model, or set " +
                           std::string(kRobotsDirVariable) + " to the folder holding the robots)");
  } else {
    description.urdf = urdf_override;
  }
  if (top.has("mesh_root")) {
    std::string mesh_root;
    top.read("mesh_root", mesh_root);
    description.mesh_root = resolve_description_path(path, expand_robots_dir(mesh_root));
  }
  // Held joints and added frames are checked against the URDF as it is, the rest against the model mimic
  // moves (held joints fixed, added frames present).
  const Model urdf_model = load_urdf(description.urdf);
  const UrdfNames urdf_names(urdf_model);
  if (top.has("held_joints")) description.held_joints = read_held_joints(urdf_names, top);
  if (top.has("added_frames")) description.added_frames = read_added_frames(urdf_names, top);
  LoadOptions moving;
  moving.held_joints = description.held_joints;
  moving.added_frames = description.added_frames;
  const Model model = load_urdf(description.urdf, moving);
  const UrdfNames names(model);

  if (legacy) {
    if (fs::exists(default_robot_description_path()) &&
        fs::equivalent(path, default_robot_description_path()))
      document.fail(root_line,
                    "missing required key 'joint_order' (the default description must be complete)");
    inherit_structure(path, model, description);
  } else {
    for (const auto& item : name_list(top, "joint_order"))
      description.joint_order.push_back(names.joint(top, "joint_order", item));
    for (const auto& joint : model.joint_names)
      if (std::find(description.joint_order.begin(), description.joint_order.end(), joint) ==
          description.joint_order.end())
        top.fail("joint_order", "the URDF joint '" + joint +
                                    "' is missing (the list names every moving joint of " +
                                    model.source_path + " that held_joints does not hold)");
    for (const auto& item : name_list(top, "extra_columns")) {
      if (model.has_joint(item.text))
        top.fail("extra_columns", item.line,
                 "'" + item.text + "' is a joint of the URDF (it belongs in joint_order)");
      description.extra_columns.push_back(item.text);
    }
    read_groups(names, top, description.groups);
    const auto commands = top.child("commands", {"retarget", "smooth"});
    description.retarget_groups = read_command(commands, "retarget");
    description.smooth_groups = read_command(commands, "smooth");
  }

  const auto frames =
      top.child("frames", {"right_sole", "left_sole", "right_gripper", "left_gripper", "gaze"});
  description.frames.right_sole = names.frame(frames, "right_sole");
  description.frames.left_sole = names.frame(frames, "left_sole");
  description.frames.right_gripper = names.frame(frames, "right_gripper");
  description.frames.left_gripper = names.frame(frames, "left_gripper");
  description.frames.gaze = names.frame(frames, "gaze");
  check_leg_reaches_sole(model, frames, "right_sole", description.frames.right_sole, "right_leg",
                         description.groups.right_leg);
  check_leg_reaches_sole(model, frames, "left_sole", description.frames.left_sole, "left_leg",
                         description.groups.left_leg);
  description.groups.right_arm.end_frame = description.frames.right_gripper;
  description.groups.left_arm.end_frame = description.frames.left_gripper;

  const auto soles = top.child("soles", {"right", "left"});
  description.right_sole = read_sole(soles, "right");
  description.left_sole = read_sole(soles, "left");

  read_nominal_pose(urdf_names, top, top.has("nominal_pose") ? "nominal_pose" : "half_sitting",
                    description.nominal_pose);
  for (std::size_t k = 0; k < description.nominal_pose.joint_names.size(); ++k)
    if (!model.has_joint(description.nominal_pose.joint_names[k]))
      top.fail(top.has("nominal_pose") ? "nominal_pose" : "half_sitting",
               "joint '" + description.nominal_pose.joint_names[k] +
                   "' is held (held_joints gives its value, not the nominal pose)");
  if (top.has("collision")) read_collision(document, names, top, description.collision);
  if (top.has("walking")) description.walking = read_walking(top);
  if (top.has("retiming")) {
    const auto retiming = top.child("retiming", {"torque_scale"});
    retiming.require("torque_scale");
    retiming.read("torque_scale", description.retiming_torque_scale,
                  core::NumberRange{0.0, 1.0, true, false, "a fraction of the effort limits"});
  }
  return description;
}

std::string default_robot_description_path() {
  return (core::data_dir() / "config" / "robots" / "hrp2.yaml").string();
}

const RobotDescription& default_robot_description() {
  static const RobotDescription description = load_robot_description(default_robot_description_path());
  return description;
}

}  // namespace mimic::model
