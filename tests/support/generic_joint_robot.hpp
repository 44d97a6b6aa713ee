// A small robot with every joint type mimic models (revolute and continuous about generic axes, prismatic,
// fixed) and rotated placements and inertias, so that a derivative test does not pass only because HRP-2's
// axes are aligned with its frames. Written once for the dynamics derivative tests and the terms harness.
#pragma once

#include <filesystem>
#include <fstream>

#include "mimic/model/model.hpp"
#include "support/temp_path.hpp"

namespace mimic::test {

// base -> (revolute, generic axis, rotated placement) arm1 -> (prismatic) arm2 -> (continuous, generic) hand
// base -> (prismatic, generic axis) slider;  hand -> (fixed) tip frame.
inline constexpr const char* kGenericUrdf = R"(<?xml version="1.0"?>
<robot name="generic">
  <link name="base"><inertial><origin xyz="0.01 -0.02 0.05" rpy="0.1 0.2 0.3"/><mass value="3.0"/>
    <inertia ixx="0.05" ixy="0.004" ixz="-0.003" iyy="0.04" iyz="0.002" izz="0.03"/></inertial></link>
  <link name="arm1"><inertial><origin xyz="0.0 0.1 0.2" rpy="0.3 -0.2 0.1"/><mass value="1.5"/>
    <inertia ixx="0.02" ixy="0.001" ixz="0.002" iyy="0.015" iyz="-0.001" izz="0.01"/></inertial></link>
  <link name="arm2"><inertial><origin xyz="0.05 0.0 -0.1" rpy="0 0 0"/><mass value="1.0"/>
    <inertia ixx="0.01" ixy="0.0" ixz="0.0" iyy="0.01" iyz="0.0" izz="0.004"/></inertial></link>
  <link name="hand"><inertial><origin xyz="0.02 0.03 0.04" rpy="-0.4 0.5 0.2"/><mass value="0.5"/>
    <inertia ixx="0.003" ixy="-0.0004" ixz="0.0002" iyy="0.002" iyz="0.0003" izz="0.0025"/></inertial></link>
  <link name="slider"><inertial><origin xyz="0.1 0.0 0.0" rpy="0 0 0"/><mass value="0.8"/>
    <inertia ixx="0.002" ixy="0.0" ixz="0.0" iyy="0.002" iyz="0.0" izz="0.002"/></inertial></link>
  <link name="tip"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="arm1"/>
    <origin xyz="0.1 0.2 0.3" rpy="0.4 -0.3 0.7"/><axis xyz="0.6 0.8 0"/>
    <limit lower="-2" upper="2" velocity="5" effort="100"/></joint>
  <joint name="j2" type="prismatic"><parent link="arm1"/><child link="arm2"/>
    <origin xyz="0 0.1 0.4" rpy="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-0.3" upper="0.3" velocity="1" effort="100"/></joint>
  <joint name="j3" type="continuous"><parent link="arm2"/><child link="hand"/>
    <origin xyz="0.2 0 0" rpy="1.0 0.2 -0.5"/><axis xyz="0.48 -0.6 0.64"/></joint>
  <joint name="j4" type="prismatic"><parent link="base"/><child link="slider"/>
    <origin xyz="-0.2 0 0" rpy="0 0.5 0"/><axis xyz="0.36 0.48 0.8"/>
    <limit lower="-0.5" upper="0.5" velocity="1" effort="100"/></joint>
  <joint name="tip_joint" type="fixed"><parent link="hand"/><child link="tip"/>
    <origin xyz="0 0 0.15" rpy="0.3 0.3 0.3"/></joint>
</robot>
)";

// The robot above, loaded once per root type (from a temporary URDF file).
inline const model::Model& generic_joint_model(model::RootType root) {
  static const std::filesystem::path path = [] {
    const std::filesystem::path p = unique_temp_path("generic_joints", ".urdf");
    std::ofstream(p) << kGenericUrdf;
    return p;
  }();
  static const model::Model free_flyer =
      model::load_urdf(path.string(), {model::RootType::kFreeFlyer, {}, {}, {}});
  static const model::Model fixed = model::load_urdf(path.string(), {model::RootType::kFixed, {}, {}, {}});
  return root == model::RootType::kFreeFlyer ? free_flyer : fixed;
}

}  // namespace mimic::test
