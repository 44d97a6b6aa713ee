// Landmarks of every frame of a clip, in the clip's frame (metres, z up, x forward at frame 0), with the
// orientation of the pelvis and, when the clip tells it, of the head.
#pragma once

#include <Eigen/Core>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "mimic/mocap/clip.hpp"
#include "mimic/retarget/landmark.hpp"
#include "mimic/retarget/landmark_preset.hpp"

namespace mimic::retarget {

struct LandmarkFrame {
  // World positions; NaN for a landmark the preset or the clip does not provide.
  std::array<Eigen::Vector3d, kLandmarkCount> position;
  // Orientation of the pelvis: columns are its forward, left and up axes in the world.
  Eigen::Matrix3d pelvis_rotation = Eigen::Matrix3d::Identity();
  // Orientation of the head, same convention; meaningful only when LandmarkTrack::head_orientation.
  Eigen::Matrix3d head_rotation = Eigen::Matrix3d::Identity();

  const Eigen::Vector3d& operator[](Landmark l) const { return position[static_cast<std::size_t>(index(l))]; }
  Eigen::Vector3d& operator[](Landmark l) { return position[static_cast<std::size_t>(index(l))]; }
};

struct LandmarkTrack {
  std::string preset;  // name of the preset the landmarks come from
  std::string source;  // the clip's file
  double rate = 0.0;   // frames per second
  std::array<bool, kLandmarkCount> available{};
  // True when the head's yaw can be told (skeleton head joint, or left/right head markers); otherwise
  // head_rotation only repeats the pelvis heading and the retargeting ignores it.
  bool head_orientation = false;
  std::vector<LandmarkFrame> frames;

  int frame_count() const { return static_cast<int>(frames.size()); }
  bool has(Landmark l) const { return available[static_cast<std::size_t>(index(l))]; }
};

// Extracts the landmarks of `clip` with an already selected preset.
//  * Skeleton: a landmark is the origin of its joint; the pelvis and head orientations are those of their
//    joints applied to the rest pose's facing frame (forward = left-right axis of the hips, or else of the
//    shoulders, crossed with up), so they need no convention on how a skeleton's bones are oriented.
//  * Markers: a landmark is the centroid of its markers. A frame where one of them is missing gets the
//    landmark interpolated linearly in time between the nearest frames that have it (held at the clip's
//    ends). The pelvis is oriented by its left-right axis (hips) and its front point; the head by its
//    front and side markers where the preset has them, else with the neck-to-head axis.
// Throws InputError when a required landmark is missing in every frame.
LandmarkTrack extract_landmarks(const mocap::Clip& clip, const SelectedPreset& selected);

// select_preset(clip, preset_name_or_file), then the above.
LandmarkTrack extract_landmarks(const mocap::Clip& clip, std::string_view preset_name_or_file = {});

}  // namespace mimic::retarget
