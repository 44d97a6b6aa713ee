// The robot description (config/robots/<robot>.yaml, docs/robot-description.md): everything mimic needs to
// know about a robot beyond its URDF. The model's joint order and the .pos columns, the joint groups
// (legs, torso, neck, arms), the operational frames and sole rectangles, the nominal pose and the joints
// each command optimises by default. Code looks joints and frames up by the names given here, so that no
// robot joint name is written in the code.
//
// Loading is strict: an unknown or missing key, a joint or frame that the URDF does not have, or a leg
// that is not six joints is an InputError "file:line: key.path: what".
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mimic/model/model.hpp"

namespace mimic::model {

// Axis-aligned rectangle in the sole frame (x forward, y left), metres.
struct SoleRectangle {
  double x_min = 0.0, x_max = 0.0, y_min = 0.0, y_max = 0.0;
};

// An arm: its chain from the shoulder to the wrist, the hand joints that open the gripper, and the frame
// at the end of the hand (frames.right_gripper / frames.left_gripper).
struct ArmGroup {
  std::vector<std::string> joints;
  std::vector<std::string> hand;
  std::string end_frame;
};

// The joint groups. Each list is a chain in the URDF, from the root outwards; each leg is six joints from
// the hip to the ankle.
struct JointGroups {
  std::vector<std::string> right_leg, left_leg, torso, neck;
  ArmGroup right_arm, left_arm;
};

// The operational frames (URDF link names).
struct OperationalFrames {
  std::string right_sole, left_sole, right_gripper, left_gripper, gaze;
};

// The nominal pose (HRP-2: half-sitting): the base position with zero orientation, and joint values by
// name (a joint not listed is 0).
struct NominalPose {
  spatial::Vec3 waist = spatial::Vec3::Zero();
  std::vector<std::string> joint_names;
  Eigen::VectorXd joints;
};

// A collision shape given by the description (key collision.shapes, docs/robot-description.md). The
// shapes named for a link replace that link's URDF <collision> elements. Lengths in metres, in the link's
// frame.
struct CollisionShapeSpec {
  enum class Kind { kCapsule, kBox };
  std::string link;
  Kind kind = Kind::kCapsule;
  spatial::Vec3 a = spatial::Vec3::Zero();  // capsule: the segment's ends
  spatial::Vec3 b = spatial::Vec3::Zero();
  double radius = 0.0;
  spatial::Vec3 centre = spatial::Vec3::Zero();  // box: centre and edge lengths, along the link's axes
  spatial::Vec3 size = spatial::Vec3::Zero();
};

// The collision section: shapes that replace or add to the URDF's, and the link pairs left unchecked
// (besides the adjacent ones, see geometry/collision_model.hpp).
struct CollisionDescription {
  std::vector<CollisionShapeSpec> shapes;
  std::vector<std::pair<std::string, std::string>> exclude;
};

// The robot's reach and pace for footstep plans made from a clip (key `walking`, optional, each value
// optional): what the file gives; pipeline/step_limits.hpp documents each value and derives the absent
// ones from the robot's leg length. Lengths in m, angles in rad, durations in s.
struct WalkingDescription {
  std::optional<double> max_forward, max_backward, max_lateral, min_width, max_turn;
  std::optional<double> min_single_support, max_single_support, min_double_support, step_height,
      waist_lowering;
};

struct RobotDescription {
  std::string source_path;  // the YAML file (named in errors)
  std::string urdf;         // the model file, resolved against the YAML file's folder (or the override)
  // Where a mesh's package://NAME/REST resolves (mesh_root/REST); empty: the URDF's folder when it holds
  // REST, else its parent (geometry/mesh_path.hpp).
  std::string mesh_root;

  std::vector<std::string> joint_order;    // every moving URDF joint: the model order and the .pos columns
  std::vector<std::string> extra_columns;  // columns after the joints in a wide .pos (not URDF joints)

  JointGroups groups;
  // The groups each command optimises by default (group names, in order).
  std::vector<std::string> retarget_groups, smooth_groups;

  OperationalFrames frames;
  SoleRectangle right_sole, left_sole;
  NominalPose nominal_pose;
  CollisionDescription collision;  // empty when the file has no collision section
  // Moving URDF joints that no motion drives, held at their value (JVRC-1's fingers): not in joint_order,
  // not in the model (loaded as fixed joints at that value).
  std::vector<HeldJoint> held_joints;
  // Frames the URDF does not have, on one of its links (G1's soles).
  std::vector<AddedFrame> added_frames;
  WalkingDescription walking;  // all empty when the file has no walking section
  // retiming.torque_scale: the fraction of the URDF effort limits the re-timed kinematic reference may ask
  // (retarget/torque_retiming.hpp), for a robot whose URDF velocity limits barely slow a captured motion;
  // 0 when the key is absent: Algorithm 1 alone (HRP-2).
  double retiming_torque_scale = 0.0;

  // The joints of a group by its name ("right_leg", ..., "left_arm": an arm's chain without its hand).
  // Throws ModelError naming the description for an unknown group.
  const std::vector<std::string>& group_joints(std::string_view group) const;
  // The joints a command optimises by default ("retarget" or "smooth"): its groups' joints in order.
  std::vector<std::string> command_joints(std::string_view command) const;

  // The columns of a .pos with `columns` values per row: joint_order, then the first extra columns.
  // Throws InputError unless columns is joint_order.size() or joint_order.size() + extra_columns.size().
  std::vector<std::string> output_columns(int columns) const;

  // The nominal q of `model` (size model.nq): joint values matched by name, base at `waist` with zero
  // orientation. Throws ModelError when a joint of the pose is not in the model.
  Eigen::VectorXd nominal_q(const Model& model) const;
};

// Reads and checks a description (every joint and frame name against its URDF). A file written before
// the description existed (the keys urdf, frames, soles and half_sitting only) still loads: half_sitting
// is nominal_pose, and joint_order, extra_columns, groups and commands come from the default description.
// `urdf_override` (--model, the job's robot.model), when not empty, replaces the file's `urdf`, which is then
// not read (the shipped JVRC-1 and G1 descriptions name a copy the user may not have). A `urdf` or
// `mesh_root` value may start with ${MIMIC_ROBOTS_DIR}: the environment variable, or unset
// <data dir>/../shared/robots (core::data_dir(): the source tree in a build tree).
RobotDescription load_robot_description(const std::string& path, const std::string& urdf_override = {});

// The shipped HRP-2 description, config/robots/hrp2.yaml of the data directory (core::data_dir()).
std::string default_robot_description_path();
// The default description, loaded once (HRP-2 stays the default robot).
const RobotDescription& default_robot_description();

}  // namespace mimic::model
