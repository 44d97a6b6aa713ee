// What the robot's upper body should look like in one frame, read off the human landmarks: segment
// directions, the head's orientation and the hands' reach, all in the human's "heading frame" (origin at
// the pelvis, z up, x along the pelvis's facing direction projected on the ground). The robot's waist
// stays upright while imitating (its legs hold half-sitting), so the heading frame is what the robot's
// waist frame stands for: a human leaning forward from the hips shows up as a leaning torso direction,
// which the robot reproduces with its chest pitch.
#pragma once

#include <Eigen/Core>
#include <array>

#include "mimic/retarget/landmark_track.hpp"

namespace mimic::retarget {

enum Side : int { kRight = 0, kLeft = 1 };

struct ArmTargets {
  Eigen::Vector3d upper_arm = Eigen::Vector3d::Zero();  // shoulder -> elbow, unit
  Eigen::Vector3d forearm = Eigen::Vector3d::Zero();    // elbow -> wrist, unit
  Eigen::Vector3d hand = Eigen::Vector3d::Zero();       // wrist -> hand, unit (the forearm's when no hand)
  bool has_hand = false;
  // Gripper position relative to the shoulder, scaled to the robot: scale * (wrist - shoulder) plus the
  // robot's wrist-to-gripper length along `hand`.
  Eigen::Vector3d reach = Eigen::Vector3d::Zero();
};

struct UpperBodyTargets {
  Eigen::Vector3d torso_up =
      Eigen::Vector3d::UnitZ();   // chest -> neck (pelvis -> neck without a chest), unit
  bool torso_from_chest = false;  // which of the two torso_up was taken from
  Eigen::Vector3d shoulder_axis = Eigen::Vector3d::UnitY();  // right shoulder -> left shoulder, unit
  bool has_head_rotation = false;
  Eigen::Matrix3d head_rotation = Eigen::Matrix3d::Identity();  // columns forward, left, up
  Eigen::Vector3d head_up = Eigen::Vector3d::UnitZ();           // neck -> head, unit
  std::array<ArmTargets, 2> arms;                               // [kRight], [kLeft]
};

// Rotation of the heading frame in the world: the yaw of the pelvis's left axis.
Eigen::Matrix3d heading_rotation(const LandmarkFrame& frame);

// The targets of one frame. `scale` multiplies human lengths into robot lengths (robot / human);
// `gripper_length` is the robot's wrist-to-gripper distance.
UpperBodyTargets upper_body_targets(const LandmarkTrack& track, const LandmarkFrame& frame, double scale,
                                    double gripper_length);

// Median over the frames of the human arm length (shoulder-elbow plus elbow-wrist, mean of both sides).
double human_arm_length(const LandmarkTrack& track);

// The human's standing height: the 90th percentile over the frames of the head's height above the lower
// ankle. The robot's counterpart is measured with straight legs (UpperBodyIk::standing_height), and bent
// knees, a crouch, a bow or a lying pose only lower the head relative to the ankles: the upper part of
// the distribution is the standing actor, which the median misses in a clip spent in a knee-bent stance
// (a boxing guard). A percentile rather than the maximum leaves out the odd bad frame (a marker swap).
// 0 when the clip has no ankle landmark.
double human_height(const LandmarkTrack& track);

}  // namespace mimic::retarget
