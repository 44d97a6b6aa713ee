// The robot model: an immutable kinematic tree with inertias and limits, loaded from a URDF.
//
// Indexing (docs/CONTRACTS.md):
//  * joints j = 0 .. nj-1 are the 1-DoF joints (revolute, continuous, prismatic). For HRP-2 loaded with
//    LoadOptions::from(description) the joint index is the index in the description's joint_order (for
//    HRP-2, LoadOptions::hrp2(), the OpenHRP index);
//  * bodies b = 0 .. nj: body 0 is the root link (BODY), moved by the free-flyer or fixed to the world;
//    body j + 1 is the child link of joint j (Model::body_of_joint). Bodies are in topological order
//    (parents[b] < b), so one forward loop b = 1..nj and one backward loop b = nj..1 visit the tree
//    (seed 002 "RNEA"). Fixed joints are merged into their parent body; every URDF link stays a Frame;
//  * q (size nq) = [base position (3); base quaternion x y z w (4); joint values (nj)] for a free-flyer,
//    = joint values for a fixed base. v, a (size nv) = [base linear, base angular, both in the BASE frame
//    (6); joint velocities (nj)], or the joint velocities for a fixed base. So joint j sits at
//    q[idx_q(j)] and v[idx_v(j)]; q.tail(nj) and v.tail(nj) are always the joint part.
#pragma once

#include <string>
#include <vector>

#include "mimic/model/data.hpp"
#include "mimic/spatial/inertia.hpp"
#include "mimic/spatial/se3.hpp"
#include "mimic/spatial/types.hpp"

namespace mimic::model {

using spatial::Mat3;
using spatial::Vec3;

enum class RootType { kFreeFlyer, kFixed };

struct RobotDescription;  // robot_description.hpp

// Kind of a 1-DoF joint. Continuous URDF joints are revolute with infinite position limits.
enum class JointType { kRevolute, kPrismatic };

// Axis of a 1-DoF joint in its own frame. Axis-aligned revolute joints (all of HRP-2) are specialised in
// the kinematics: their transform is a plain rotation about x, y or z.
enum class AxisKind { kX, kY, kZ, kGeneric };

struct Frame {
  std::string name;        // URDF link name (e.g. "r_sole", "RLEG_LINK5", "BODY")
  int body = 0;            // body the frame is rigidly attached to
  spatial::SE3 placement;  // pose of the frame in the body frame
};

// A moving joint of the URDF that the model holds at `value` (rad or m): it is loaded as a fixed joint at
// that value, its child link merged into its parent body (JVRC-1's finger joints, which no motion drives;
// the description's held_joints).
struct HeldJoint {
  std::string name;
  double value = 0.0;
};

// A frame that is not a URDF link, rigidly attached to one (the description's added_frames: G1's soles,
// which its URDF does not have).
struct AddedFrame {
  std::string name;
  std::string link;        // URDF link it hangs from
  spatial::SE3 placement;  // in that link's frame
};

struct LoadOptions {
  RootType root = RootType::kFreeFlyer;
  // When non-empty: the names of ALL the moving joints of the URDF, in the wanted joint-index order; it
  // must list a parent joint before its children. A name missing from the URDF, a moving URDF joint missing
  // from the list or a child-before-parent order is a ModelError. When empty: depth-first URDF order.
  std::vector<std::string> joint_order;
  // Moving URDF joints loaded as fixed at their value; joint_order lists the others.
  std::vector<HeldJoint> held_joints;
  // Frames appended after the URDF's links (a name that is already a link is a ModelError).
  std::vector<AddedFrame> added_frames;

  // The joints in the description's joint_order.
  static LoadOptions from(const RobotDescription& description, RootType root = RootType::kFreeFlyer);
  // The default description's robot (HRP-2, joint index == OpenHRP index); kept until its callers load a
  // model::Robot.
  static LoadOptions hrp2(RootType root = RootType::kFreeFlyer);
};

// The joint_order of the default description (HRP-2's OpenHRP order); kept until its callers take the
// order from their description.
const std::vector<std::string>& openhrp_joint_names();

struct Model {
  std::string name;         // URDF robot name
  std::string source_path;  // file it was loaded from (for error messages)
  RootType root = RootType::kFreeFlyer;

  int nq = 0;       // configuration size
  int nv = 0;       // velocity size
  int nj = 0;       // number of 1-DoF joints
  int nbodies = 0;  // nj + 1

  // Per body (size nbodies; entry 0 is the root body).
  std::vector<std::string> body_names;  // URDF link names of the moving bodies
  std::vector<int> parents;             // parents[0] = -1
  std::vector<spatial::SE3>
      joint_placements;  // lambda(b) M b at q = 0: joint frame in parent body (entry 0: identity)
  std::vector<spatial::Inertia> inertias;  // in the body frame, with every fixed-joint child merged in
  std::vector<std::vector<int>> children;  // child bodies
  // Per body: joint type and axis of the joint moving it (entries for body 0 are unused).
  std::vector<JointType> joint_types;
  std::vector<AxisKind> axis_kinds;
  std::vector<Vec3> axes;  // unit axis in the body (= joint) frame

  // Per joint j (size nj).
  std::vector<std::string> joint_names;
  Eigen::VectorXd lower_limit;     // rad or m (-inf for continuous joints)
  Eigen::VectorXd upper_limit;     // rad or m (+inf for continuous joints)
  Eigen::VectorXd velocity_limit;  // rad/s or m/s (URDF <limit velocity>)
  Eigen::VectorXd effort_limit;    // N m or N (URDF <limit effort>)

  std::vector<Frame> frames;  // one per URDF link (moving and fixed-joint children), then the added frames

  Vec3 gravity = Vec3(0.0, 0.0, -9.81);  // world frame, m/s^2

  int idx_q(int joint) const { return nq - nj + joint; }
  int idx_v(int joint) const { return nv - nj + joint; }
  static int body_of_joint(int joint) { return joint + 1; }
  static int joint_of_body(int body) { return body - 1; }  // -1 for the root
  bool has_free_flyer() const { return root == RootType::kFreeFlyer; }

  // Lookups by name; each throws ModelError naming the model file when the name is unknown.
  int joint_index(const std::string& joint_name) const;
  int frame_index(const std::string& frame_name) const;
  int body_index(const std::string& link_name) const;
  bool has_joint(const std::string& joint_name) const;
  bool has_frame(const std::string& frame_name) const;

  double total_mass() const;
};

// Loads a URDF with urdfdom. The root is the URDF's root link, or, when that link is a massless "world"
// whose one joint is `floating` (G1's URDF for simulators), the child of that joint: the floating joint is
// the free-flyer. Throws ModelError ("<file>: <element>: <what>") for a missing or unparsable file, an
// unknown joint type (planar, a floating joint elsewhere), a moving body without mass, a joint_order that
// does not match the URDF, or a held joint or added frame naming no joint / link of it.
Model load_urdf(const std::string& path, const LoadOptions& options = {});

}  // namespace mimic::model
