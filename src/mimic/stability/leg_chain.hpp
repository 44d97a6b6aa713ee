// The six joints of one leg as the leg IK sees them: read once from the Model, from the root body down to
// a sole frame, with the forward kinematics and the sole's body Jacobian of that chain alone (no Data, no
// other joint). Both leg IK methods (leg_ik_closed_form.hpp, leg_ik_damped_newton.hpp) work on it.
#pragma once

#include <Eigen/Core>
#include <array>
#include <string>

#include "mimic/model/model.hpp"
#include "mimic/spatial/se3.hpp"

namespace mimic::stability {

// A leg is six revolute joints from the hip to the ankle: the contract of the robot description's leg
// groups (docs/robot-description.md; its reader refuses any other count and checks that each leg ends at
// its sole). Their axes and offsets are free: the IK picks its method from them (leg_ik.hpp).
inline constexpr int kLegJoints = 6;

// The angles in chain order, hip first (HRP-2: hip yaw, roll, pitch, knee, ankle pitch, roll; JVRC-1 and
// G1: hip pitch, roll, yaw, knee, then the two ankle joints).
using LegAngles = Eigen::Matrix<double, kLegJoints, 1>;
using LegJacobian = Eigen::Matrix<double, 6, kLegJoints>;

struct LegChain {
  std::string sole_frame;
  std::array<int, kLegJoints> joints{};             // Model joint indices, hip first
  std::array<spatial::SE3, kLegJoints> placements;  // joint frame in its parent body frame, at zero angle
  std::array<model::AxisKind, kLegJoints> axis_kinds{};
  std::array<spatial::Vec3, kLegJoints> axes;  // unit axis in the joint's own frame
  std::array<double, kLegJoints> lower{}, upper{};
  spatial::SE3 sole_in_ankle;  // sole frame in the last body of the chain

  // The chain from the root body to `sole_frame`: six revolute joints hanging from the root body, else
  // ModelError naming the model file.
  static LegChain of(const model::Model& model, const std::string& sole_frame);

  // Sole pose (world) for a root pose (world) and the six angles.
  spatial::SE3 sole_pose(const spatial::SE3& root, const LegAngles& angles) const;
  // The same, and the 6x6 body Jacobian of the sole frame ([linear; angular] velocity in the sole's axes per
  // joint velocity): column i is joint i's unit twist a_i x (p_sole - o_i), a_i, rotated into the sole frame.
  spatial::SE3 sole_pose_and_jacobian(const spatial::SE3& root, const LegAngles& angles,
                                      LegJacobian& jacobian) const;

  // Angles moved by multiples of 2 pi next to the middle of their range; the first joint (from the hip)
  // outside its limits by more than 1e-9 rad (-1 if none).
  int wrap_and_check_limits(LegAngles& q) const;
  // The offsets from the knee (the fourth joint) down to the sole: the straight leg's length below the hip,
  // for messages (HRP-2: thigh 0.3 + shank 0.3 + sole 0.105 m).
  double length() const;
};

}  // namespace mimic::stability
