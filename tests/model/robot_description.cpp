// config/robots/hrp2.yaml: the groups, command sets and columns it gives, the model loaded from it, the old
// key half_sitting and the old file layout, and errors naming the file and line of the offending key.
#include "mimic/model/robot_description.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "mimic/core/error.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot.hpp"
#include "model/robot_yaml_files.hpp"
#include "support/shared_data.hpp"

namespace mimic::model {
namespace {

namespace fs = std::filesystem;
using testing::read;
using testing::text_path;

const fs::path kDescription = test::source_dir() / "config" / "robots" / "hrp2.yaml";

// 1-based line of the first occurrence of `part` in `text`.
int line_of(const std::string& text, const std::string& part) {
  const auto at = text.find(part);
  EXPECT_NE(at, std::string::npos) << part;
  return static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n')) + 1;
}

// Writes `text` to a temporary file (with the urdf path made absolute) and loads it.
RobotDescription load_text(const std::string& text) {
  return testing::load_text(text, [](const std::string& path) { return load_robot_description(path); });
}

// The InputError of loading `text`; it must start with "<file>:line <line>: " (the form of every strict
// YAML reader, core/strict_yaml.hpp) and contain `part`.
void expect_error_at(const std::string& text, int line, const std::string& part) {
  try {
    load_text(text);
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_TRUE(msg.starts_with(text_path().string() + ":line " + std::to_string(line) + ": ")) << msg;
    EXPECT_NE(msg.find(part), std::string::npos) << "'" << part << "' not in: " << msg;
  }
}

std::vector<std::string> names(std::initializer_list<const char*> list) { return {list.begin(), list.end()}; }

TEST(RobotDescription, Hrp2Groups) {
  const RobotDescription d = load_robot_description(kDescription.string());
  EXPECT_TRUE(fs::equivalent(d.urdf, test::hrp2_urdf()));
  EXPECT_EQ(d.groups.right_leg, names({"RLEG_JOINT0", "RLEG_JOINT1", "RLEG_JOINT2", "RLEG_JOINT3",
                                       "RLEG_JOINT4", "RLEG_JOINT5"}));
  EXPECT_EQ(d.groups.left_leg.size(), 6u);
  EXPECT_EQ(d.groups.left_leg.front(), "LLEG_JOINT0");
  EXPECT_EQ(d.groups.torso, names({"CHEST_JOINT0", "CHEST_JOINT1"}));
  EXPECT_EQ(d.groups.neck, names({"HEAD_JOINT0", "HEAD_JOINT1"}));
  EXPECT_EQ(d.groups.right_arm.joints.size(), 6u);
  EXPECT_EQ(d.groups.right_arm.hand, names({"RARM_JOINT6"}));
  EXPECT_EQ(d.groups.left_arm.joints.size(), 6u);
  EXPECT_EQ(d.groups.left_arm.hand, names({"LARM_JOINT6"}));
  // An arm ends at its gripper frame.
  EXPECT_EQ(d.groups.right_arm.end_frame, "r_gripper");
  EXPECT_EQ(d.groups.left_arm.end_frame, "l_gripper");
  EXPECT_EQ(d.group_joints("left_arm"), d.groups.left_arm.joints);
  EXPECT_THROW(d.group_joints("tail"), ModelError);
  EXPECT_EQ(d.frames.gaze, "gaze");
}

// Today's active joints of retarget (motion/active_joints.hpp) and the leg joints of smooth.
TEST(RobotDescription, CommandSets) {
  const RobotDescription d = load_robot_description(kDescription.string());
  EXPECT_EQ(d.command_joints("retarget"),
            names({"CHEST_JOINT0", "CHEST_JOINT1", "HEAD_JOINT0", "HEAD_JOINT1", "RARM_JOINT0", "RARM_JOINT1",
                   "RARM_JOINT2", "RARM_JOINT3", "RARM_JOINT4", "RARM_JOINT5", "LARM_JOINT0", "LARM_JOINT1",
                   "LARM_JOINT2", "LARM_JOINT3", "LARM_JOINT4", "LARM_JOINT5"}));
  const auto smooth = d.command_joints("smooth");
  ASSERT_EQ(smooth.size(), 12u);
  EXPECT_TRUE(std::equal(d.groups.right_leg.begin(), d.groups.right_leg.end(), smooth.begin()));
  EXPECT_TRUE(std::equal(d.groups.left_leg.begin(), d.groups.left_leg.end(), smooth.begin() + 6));
  EXPECT_THROW(d.command_joints("dance"), ModelError);
}

TEST(RobotDescription, OutputColumns) {
  const RobotDescription d = load_robot_description(kDescription.string());
  ASSERT_EQ(d.joint_order.size(), 30u);
  ASSERT_EQ(d.extra_columns.size(), 10u);
  EXPECT_EQ(d.joint_order.front(), "RLEG_JOINT0");
  EXPECT_EQ(d.joint_order.back(), "LARM_JOINT6");
  EXPECT_EQ(d.extra_columns.front(), "RHAND_JOINT0");
  EXPECT_EQ(d.extra_columns.back(), "LHAND_JOINT4");
  EXPECT_EQ(d.output_columns(30), d.joint_order);
  const auto wide = d.output_columns(40);
  ASSERT_EQ(wide.size(), 40u);
  EXPECT_EQ(wide[30], "RHAND_JOINT0");
  EXPECT_THROW(d.output_columns(35), InputError);
}

// The model's joint order is the description's: for HRP-2 the OpenHRP order of LoadOptions::hrp2().
TEST(RobotDescription, ModelInDescriptionOrder) {
  const Robot robot = load_robot(kDescription.string());
  EXPECT_EQ(robot.model.joint_names, robot.description.joint_order);
  EXPECT_EQ(openhrp_joint_names(), robot.description.joint_order);
  EXPECT_EQ(LoadOptions::hrp2().joint_order, LoadOptions::from(robot.description).joint_order);
  EXPECT_EQ(LoadOptions::from(robot.description, RootType::kFixed).root, RootType::kFixed);
  const Eigen::VectorXd q = robot.description.nominal_q(robot.model);
  EXPECT_EQ(q.head<3>(), Vec3(0, 0, 0.648702));
  EXPECT_EQ(q[robot.model.idx_q(robot.model.joint_index("RLEG_JOINT3"))], 0.872665);

  // The payload is part of the model.
  Payload payload{"r_gripper", spatial::Inertia(0.7, Vec3(0.1, 0, 0), Mat3::Identity() * 1e-3)};
  const Robot loaded = load_robot(kDescription.string(), payload);
  EXPECT_NEAR(loaded.model.total_mass(), robot.model.total_mass() + 0.7, 1e-12);
}

// Users' robot configurations written before the description: half_sitting is nominal_pose, and a file
// without the structure keys takes them from the default description.
TEST(RobotDescription, OldKeyAndOldLayout) {
  const RobotDescription shipped = load_robot_description(kDescription.string());
  std::string text = std::regex_replace(read(kDescription), std::regex("\nnominal_pose:"), "\nhalf_sitting:");
  const RobotDescription renamed = load_text(text);
  EXPECT_EQ(renamed.nominal_pose.joint_names, shipped.nominal_pose.joint_names);
  EXPECT_EQ(renamed.nominal_pose.joints, shipped.nominal_pose.joints);

  expect_error_at(text + "nominal_pose: {waist: [0, 0, 1], joints: {}}\n", line_of(text, "half_sitting:"),
                  "not both");

  // Drop joint_order ... commands (the block before `# Operational frames`).
  const auto from = text.find("# The joint order of the model");
  const auto to = text.find("# Operational frames");
  ASSERT_LT(from, to);
  const std::string old_layout = text.substr(0, from) + text.substr(to);
  const RobotDescription old = load_text(old_layout);
  EXPECT_EQ(old.joint_order, shipped.joint_order);
  EXPECT_EQ(old.command_joints("retarget"), shipped.command_joints("retarget"));
  EXPECT_EQ(old.groups.right_arm.end_frame, "r_gripper");
  EXPECT_EQ(old.nominal_pose.joints, shipped.nominal_pose.joints);

  // Some structure keys but not all: a key forgotten.
  const std::string partial = std::regex_replace(text, std::regex("\ncommands:\n.*\n.*\n"), "\n");
  expect_error_at(partial, line_of(partial, "urdf: "), "missing required key 'commands'");
}

TEST(RobotDescription, UnknownJointNameNamesFileAndLine) {
  const std::string text = read(kDescription);
  // In a group (the second RARM_JOINT3 of the file is the one of groups.right_arm).
  const auto group_line = line_of(text, "    joints: [RARM_JOINT0");
  expect_error_at(std::regex_replace(text, std::regex("    joints: \\[RARM_JOINT0, RARM_JOINT1, RARM_JOINT2"),
                                     "    joints: [RARM_JOINT0, RARM_JOINT1, RARM_WRONG"),
                  group_line, "groups.right_arm.joints: no joint 'RARM_WRONG' in ");
  // In joint_order.
  expect_error_at(std::regex_replace(text, std::regex("CHEST_JOINT0, CHEST_JOINT1,"), "CHEST_JOINT0, CHEST,"),
                  line_of(text, "CHEST_JOINT0, CHEST_JOINT1,"), "joint_order: no joint 'CHEST'");
  // In the nominal pose.
  expect_error_at(std::regex_replace(text, std::regex("    HEAD_JOINT1: 0.0"), "    NECK: 0.0"),
                  line_of(text, "    HEAD_JOINT1: 0.0"), "nominal_pose.joints: no joint 'NECK'");
  // A frame.
  expect_error_at(std::regex_replace(text, std::regex("  gaze: gaze"), "  gaze: eye"),
                  line_of(text, "  gaze: gaze"), "frames.gaze: no link 'eye'");
  // A group in a command.
  expect_error_at(std::regex_replace(text, std::regex("smooth: \\[right_leg, left_leg\\]"), "smooth: [legs]"),
                  line_of(text, "smooth: [right_leg"), "commands.smooth: unknown group 'legs'");
}

TEST(RobotDescription, LegOfSixJointsInChainOrder) {
  const std::string text = read(kDescription);
  const int line = line_of(text, "  right_leg: [");
  expect_error_at(std::regex_replace(text, std::regex(", RLEG_JOINT5\\]"), "]"), line,
                  "groups.right_leg: expected 6 joints from the hip to the ankle, found 5");
  expect_error_at(std::regex_replace(text, std::regex("RLEG_JOINT3, RLEG_JOINT4, RLEG_JOINT5\\]"),
                                     "RLEG_JOINT3, RLEG_JOINT4, RLEG_JOINT5, RARM_JOINT0]"),
                  line, "found 7");
  // The ankle before the knee: not a chain from the hip outwards.
  expect_error_at(std::regex_replace(text, std::regex("RLEG_JOINT3, RLEG_JOINT4, RLEG_JOINT5\\]"),
                                     "RLEG_JOINT4, RLEG_JOINT3, RLEG_JOINT5]"),
                  line, "groups.right_leg: 'RLEG_JOINT4' does not follow 'RLEG_JOINT2'");
  // The sole of another leg: the leg IK would find the left leg's joints for the right sole.
  expect_error_at(std::regex_replace(text, std::regex("right_sole: r_sole"), "right_sole: l_sole"),
                  line_of(text, "  right_sole: r_sole"),
                  "frames.right_sole: 'l_sole' does not hang from 'RLEG_JOINT5', the last joint of "
                  "groups.right_leg");
  // A joint in two groups.
  expect_error_at(std::regex_replace(text, std::regex("hand: \\[LARM_JOINT6\\]"), "hand: [RARM_JOINT6]"),
                  line_of(text, "hand: [LARM_JOINT6]"), "joint 'RARM_JOINT6' is already in groups.right_arm");
}

TEST(RobotDescription, UnknownAndMissingKeys) {
  const std::string text = read(kDescription);
  const std::string extra =
      std::regex_replace(text, std::regex("  neck: \\["), "  tail: [HEAD_JOINT0]\n  neck: [");
  expect_error_at(extra, line_of(extra, "  tail:"),
                  "unknown key 'groups.tail' (expected one of: right_leg, ");
  expect_error_at(text + "colour: red\n", line_of(text + "colour: red\n", "colour:"), "unknown key 'colour'");
  // joint_order must list every moving joint.
  expect_error_at(std::regex_replace(text, std::regex(", LARM_JOINT6\\]\n"), "]\n",
                                     std::regex_constants::format_first_only),
                  line_of(text, "joint_order: ["), "joint_order: the URDF joint 'LARM_JOINT6' is missing");
  // An output column that is a URDF joint.
  expect_error_at(std::regex_replace(text, std::regex("LHAND_JOINT4\\]"), "LARM_JOINT6]"),
                  line_of(text, "LHAND_JOINT3, LHAND_JOINT4]"),
                  "extra_columns: 'LARM_JOINT6' is a joint of the URDF");
}

TEST(RobotDescription, DefaultDescription) {
  EXPECT_TRUE(fs::equivalent(default_robot_description_path(), kDescription));
  EXPECT_EQ(default_robot_description().joint_order.size(), 30u);
  try {
    load_robot_description("/nonexistent/robot.yaml");
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/robot.yaml: no such file");
  }
}

// Error paths of the description read through core's strict reader: each names the line and key path.
TEST(RobotDescription, WrongTypesAndValues) {
  const std::string text = read(kDescription);
  // A group that is not a list of names, a section that is not a mapping.
  expect_error_at(
      std::regex_replace(text, std::regex("  torso: \\[CHEST_JOINT0, CHEST_JOINT1\\]"), "  torso: CHEST"),
      line_of(text, "  torso: ["), "groups.torso: expected a list of names, e.g. [a, b], found 'CHEST'");
  expect_error_at(std::regex_replace(text, std::regex("\ncommands:\n.*\n.*\n"), "\ncommands: all\n"),
                  line_of(text, "commands:"), "commands: expected a mapping (key: value lines), found 'all'");
  // A name listed twice, an arm without joints, a hand joint the URDF lacks.
  expect_error_at(std::regex_replace(text, std::regex("torso: \\[CHEST_JOINT0, CHEST_JOINT1\\]"),
                                     "torso: [CHEST_JOINT0, CHEST_JOINT0]"),
                  line_of(text, "  torso: ["), "groups.torso: 'CHEST_JOINT0' listed twice");
  expect_error_at(
      std::regex_replace(text, std::regex("    joints: \\[RARM_JOINT0[^\\]]*\\]"), "    joints: []"),
      line_of(text, "    joints: [RARM_JOINT0"), "groups.right_arm.joints: expected at least one joint");
  expect_error_at(std::regex_replace(text, std::regex("hand: \\[RARM_JOINT6\\]"), "hand: [RARM_JOINT7]"),
                  line_of(text, "hand: [RARM_JOINT6]"), "groups.right_arm.hand: no joint 'RARM_JOINT7' in ");
  // The nominal pose: a waist of two numbers, a joint value that is not a number, a joint given twice.
  expect_error_at(
      std::regex_replace(text, std::regex("waist: \\[0.0, 0.0, 0.648702\\]"), "waist: [0.0, 0.648702]"),
      line_of(text, "  waist: ["), "nominal_pose.waist: expected a list of 3 numbers, found a list of 2");
  expect_error_at(std::regex_replace(text, std::regex("    HEAD_JOINT1: 0.0"), "    HEAD_JOINT1: straight"),
                  line_of(text, "    HEAD_JOINT1: 0.0"),
                  "nominal_pose.joints.HEAD_JOINT1: expected a number, found 'straight'");
  expect_error_at(std::regex_replace(text, std::regex("    HEAD_JOINT1: 0.0"), "    HEAD_JOINT0: 0.0"),
                  line_of(text, "    HEAD_JOINT1: 0.0"),
                  "duplicate key 'nominal_pose.joints.HEAD_JOINT0' (first on line ");
  // A sole rectangle with a value that is not a number, or empty.
  expect_error_at(std::regex_replace(text, std::regex("x_max: 0.130"), "x_max: far"),
                  line_of(text, "  right: {"), "soles.right.x_max: expected a number, found 'far'");
  expect_error_at(std::regex_replace(text, std::regex("x_max: 0.130"), "x_max: -0.2"),
                  line_of(text, "  right: {"), "soles.right: empty rectangle (min >= max)");
  // No nominal pose at all (the first key's line is the top level's), a URDF that does not exist.
  const std::string no_pose = text.substr(0, text.find("\nnominal_pose:")) + "\n";
  expect_error_at(no_pose, line_of(text, "urdf: "), "missing required key 'nominal_pose'");
  expect_error_at(
      std::regex_replace(text, std::regex("urdf: \\.\\./\\.\\./models/hrp2.urdf"), "urdf: nowhere.urdf"),
      line_of(text, "urdf: "), "urdf: no such file '");
}

// The collision section (docs/robot-description.md, "Collision model").
TEST(RobotDescription, CollisionSectionErrors) {
  const std::string text = read(kDescription);
  const std::string head = text.substr(0, text.find("\ncollision:")) + "\ncollision:\n";
  const int line = line_of(text, "\ncollision:") + 2;  // the first line under collision:
  // `below`: the line of the error, counted from the first line under collision:.
  const auto expect = [&](const std::string& section, int below, const std::string& part) {
    expect_error_at(head + section, line + below, part);
  };
  expect("  shapes: {link: HEAD_LINK1}\n", 0, "collision.shapes: expected a list of shapes, found a mapping");
  expect("  shapes:\n    - {link: HEAD_LINK1}\n", 1,
         "collision.shapes: give one of 'capsule' or 'box' (the supported shapes)");
  expect("  shapes: []\n  exclude: [x]\n", 1,
         "collision.exclude: expected a pair of link names, e.g. [RLEG_LINK5, LLEG_LINK5], found 'x'");
  expect("  exclude: none\n", 0, "collision.exclude: expected a list of link pairs, found 'none'");
  expect("  shapes:\n    - {link: HEAD_LINK1, box: {centre: [0, 0, 0], size: [0.1, 0, 0.1]}}\n", 1,
         "collision.shapes.box.size: expected a list of 3 numbers, each a length > 0, found '0' as item 2");
  expect("  shapes:\n    - {link: HEAD_LINK1, capsule: {a: [0, 0, 0], b: [0, 0, 1]}}\n", 1,
         "missing required key 'collision.shapes.capsule.radius'");
  const RobotDescription d =
      load_text(head +
                "  shapes:\n    - {link: HEAD_LINK1, box: {centre: [0, 0, 0.1], size: [0.1, 0.2, "
                "0.3]}}\n  exclude:\n    - [RARM_LINK6, LARM_LINK6]\n");
  ASSERT_EQ(d.collision.shapes.size(), 1u);
  EXPECT_EQ(d.collision.shapes[0].kind, CollisionShapeSpec::Kind::kBox);
  EXPECT_EQ(d.collision.shapes[0].size, Vec3(0.1, 0.2, 0.3));
  ASSERT_EQ(d.collision.exclude.size(), 1u);
  EXPECT_EQ(d.collision.exclude[0].second, "LARM_LINK6");
}

// walking: the robot's reach and pace for footstep plans (pipeline/step_limits.hpp): every value
// optional, each checked, an unknown key an error at its line.
TEST(RobotDescription, WalkingSection) {
  const std::string text = read(kDescription);
  const auto at = text.find("\nwalking:");
  const std::string head = (at == std::string::npos ? text : text.substr(0, at)) + "\nwalking:\n";
  const int line = line_of(head, "\nwalking:") + 2;  // the first line under walking:
  expect_error_at(head + "  max_forward: 0.3\n  max_stride: 0.5\n", line + 1,
                  "unknown key 'walking.max_stride'");
  expect_error_at(head + "  min_single_support: 0\n", line,
                  "walking.min_single_support: expected a duration (s) > 0, found '0'");
  expect_error_at(head + "  max_turn: 4\n", line, "walking.max_turn: expected an angle (rad) in (0, ");
  const RobotDescription d = load_text(head + "  max_forward: 0.3\n  min_width: 0\n");
  EXPECT_EQ(d.walking.max_forward, 0.3);
  EXPECT_EQ(d.walking.min_width, 0.0);
  EXPECT_FALSE(d.walking.max_backward.has_value());
  EXPECT_FALSE(d.walking.step_height.has_value());
  EXPECT_FALSE(d.walking.waist_lowering.has_value());
  expect_error_at(head + "  waist_lowering: -0.01\n", line,
                  "walking.waist_lowering: expected a length (m) >= 0, found '-0.01'");
}

}  // namespace
}  // namespace mimic::model
