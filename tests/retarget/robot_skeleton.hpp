// A "human" skeleton with HRP-2's proportions, driven by known robot joint angles: each skeleton joint
// sits at a robot joint and rotates with it, so its forward kinematics is the robot's. Joint names follow
// the CMU MotionBuilder release, so the shipped cmu-motionbuilder preset recognises it. Retargeting it
// must give back the robot angles that drove it.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <string>
#include <vector>

#include "mimic/mocap/clip.hpp"
#include "mimic/model/model.hpp"

namespace mimic::test {

// One skeleton joint = a chain of robot joints with no offset between them (e.g. the three shoulder
// joints), placed at the first one's origin.
struct SkeletonSegment {
  std::string name;
  std::string parent;                     // skeleton joint name ("" for children of the root)
  std::vector<std::string> robot_joints;  // in chain order; empty for a fixed point (hand tip, end)
  std::string frame;                      // for a fixed point: the robot frame it sits at
};

inline std::vector<SkeletonSegment> hrp2_skeleton_segments() {
  return {
      {"Spine1", "", {"CHEST_JOINT0", "CHEST_JOINT1"}, ""},
      {"Neck", "Spine1", {"HEAD_JOINT0", "HEAD_JOINT1"}, ""},
      {"Head", "Neck", {}, "gaze"},
      {"RightArm", "Spine1", {"RARM_JOINT0", "RARM_JOINT1", "RARM_JOINT2"}, ""},
      {"RightForeArm", "RightArm", {"RARM_JOINT3", "RARM_JOINT4"}, ""},
      {"RightHand", "RightForeArm", {"RARM_JOINT5"}, ""},
      {"RightFingerBase", "RightHand", {}, "r_gripper"},
      {"LeftArm", "Spine1", {"LARM_JOINT0", "LARM_JOINT1", "LARM_JOINT2"}, ""},
      {"LeftForeArm", "LeftArm", {"LARM_JOINT3", "LARM_JOINT4"}, ""},
      {"LeftHand", "LeftForeArm", {"LARM_JOINT5"}, ""},
      {"LeftFingerBase", "LeftHand", {}, "l_gripper"},
      {"RHipJoint", "", {"RLEG_JOINT0", "RLEG_JOINT1"}, ""},
      {"RightUpLeg", "RHipJoint", {"RLEG_JOINT2"}, ""},
      {"RightLeg", "RightUpLeg", {"RLEG_JOINT3"}, ""},
      {"RightFoot", "RightLeg", {"RLEG_JOINT4", "RLEG_JOINT5"}, ""},
      {"RightToeBase", "RightFoot", {}, "r_sole"},
      {"LHipJoint", "", {"LLEG_JOINT0", "LLEG_JOINT1"}, ""},
      {"LeftUpLeg", "LHipJoint", {"LLEG_JOINT2"}, ""},
      {"LeftLeg", "LeftUpLeg", {"LLEG_JOINT3"}, ""},
      {"LeftFoot", "LeftLeg", {"LLEG_JOINT4", "LLEG_JOINT5"}, ""},
      {"LeftToeBase", "LeftFoot", {}, "l_sole"},
  };
}

// Builds the clip: `joints` is frames x nj (OpenHRP order); the root ("Hips", at BODY) is moved by the
// per-frame `root_yaw` (rad about z) and `root_position` (world), given as frames x 1 and frames x 3.
inline mocap::Clip robot_skeleton_clip(const model::Model& model, const Eigen::MatrixXd& joints, double rate,
                                       const Eigen::VectorXd& root_yaw,
                                       const Eigen::MatrixXd& root_position) {
  using mocap::ChannelType;
  mocap::SkeletonClip skeleton;
  std::vector<std::vector<int>> channel_joint;  // per skeleton joint: robot joint of each channel (-1: root)

  mocap::Joint root;
  root.name = "Hips";
  root.channels = {ChannelType::kXposition, ChannelType::kYposition, ChannelType::kZposition,
                   ChannelType::kZrotation};
  skeleton.joints.push_back(root);
  int channels = 4;

  for (const auto& seg : hrp2_skeleton_segments()) {
    mocap::Joint j;
    j.name = seg.name;
    j.parent = seg.parent.empty() ? 0 : skeleton.joint_index(seg.parent);
    EXPECT_GE(j.parent, 0) << seg.name;
    if (!seg.robot_joints.empty()) {
      const int first = model.joint_index(seg.robot_joints.front());
      const int body = model::Model::body_of_joint(first);
      j.offset = model.joint_placements[static_cast<std::size_t>(body)].p;
      // A skeleton parent's origin is its first robot joint, but the robot offset is from the LAST joint
      // of the parent chain: they coincide because chained joints have zero offsets (checked below).
      for (std::size_t k = 0; k < seg.robot_joints.size(); ++k) {
        const int rj = model.joint_index(seg.robot_joints[k]);
        const int b = model::Model::body_of_joint(rj);
        if (k > 0) {
          EXPECT_LT(model.joint_placements[static_cast<std::size_t>(b)].p.norm(), 1e-12)
              << seg.robot_joints[k];
        }
        switch (model.axis_kinds[static_cast<std::size_t>(b)]) {
          case model::AxisKind::kX:
            j.channels.push_back(ChannelType::kXrotation);
            break;
          case model::AxisKind::kY:
            j.channels.push_back(ChannelType::kYrotation);
            break;
          case model::AxisKind::kZ:
            j.channels.push_back(ChannelType::kZrotation);
            break;
          default:
            ADD_FAILURE() << "generic axis";
        }
        EXPECT_GT(model.axes[static_cast<std::size_t>(b)].maxCoeff(), 0.0)
            << "axes are positive unit vectors";
      }
      j.first_channel = channels;
      channels += static_cast<int>(j.channels.size());
    } else {
      const auto& frame = model.frames[static_cast<std::size_t>(model.frame_index(seg.frame))];
      j.offset = frame.placement.p;
      j.first_channel = channels;
    }
    skeleton.joints.push_back(j);
  }

  skeleton.frame_time = 1.0 / rate;
  skeleton.values.resize(joints.rows(), channels);
  for (Eigen::Index f = 0; f < joints.rows(); ++f) {
    skeleton.values(f, 0) = root_position(f, 0);
    skeleton.values(f, 1) = root_position(f, 1);
    skeleton.values(f, 2) = root_position(f, 2);
    skeleton.values(f, 3) = root_yaw[f];
    int column = 4;
    for (const auto& seg : hrp2_skeleton_segments()) {
      for (const auto& rj : seg.robot_joints) skeleton.values(f, column++) = joints(f, model.joint_index(rj));
    }
  }

  mocap::Clip clip;
  clip.source = "synthetic-hrp2-skeleton";
  clip.format = mocap::ClipFormat::kBvh;
  clip.data = std::move(skeleton);
  return clip;
}

}  // namespace mimic::test
