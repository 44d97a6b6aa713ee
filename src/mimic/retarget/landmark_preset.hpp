// Landmark presets: which joints of a skeleton, or which markers of a marker set, give each landmark.
// Presets are YAML files, shipped in config/skeletons/ and config/markersets/; a user's own mapping is a
// file in the same format passed with --preset FILE:
//
//   name: cmu-motionbuilder          # how --preset refers to it
//   kind: skeleton                   # skeleton | markers
//   description: CMU database, cgspeed MotionBuilder-friendly BVH release
//   landmarks:
//     pelvis: Hips                   # skeleton: a joint name, or a list of alternatives (first found wins)
//     right_hand: [RightFingerBase, RightHand_End]   # BVH End Sites are "<parent>_End"
//
// For `kind: markers` a list means the centroid of ALL the listed markers (e.g. the wrist is the middle of
// the two wrist-bar markers). Joint names match exactly, then case-insensitively, then ignoring a
// namespace prefix ("mixamorig:LeftArm" matches LeftArm); marker labels match with or without the
// subject prefix ("Subject:RSHO").
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "mimic/mocap/clip.hpp"
#include "mimic/retarget/landmark.hpp"

namespace mimic::retarget {

enum class PresetKind { kSkeleton, kMarkers };

std::string_view to_string(PresetKind kind);  // "skeleton", "markers"

struct LandmarkPreset {
  std::string name;
  PresetKind kind = PresetKind::kSkeleton;
  std::string description;
  std::filesystem::path source;  // the YAML file (empty when parsed from a string)
  // Per landmark: the joint names (alternatives) or the marker labels (averaged); empty = not provided.
  std::array<std::vector<std::string>, kLandmarkCount> sources;
};

// Strict readers (core::StrictMapping): a missing, unknown or repeated key (an unknown landmark is an
// unknown key of `landmarks`), or a value of the wrong type or kind is an InputError naming the file, the
// line, the key and what was expected.
LandmarkPreset load_landmark_preset(const std::filesystem::path& path);
LandmarkPreset parse_landmark_preset(std::string_view yaml, const std::string& file_name);

// The folders holding the shipped presets of `kind`, searched in order: $MIMIC_CONFIG_DIR/<sub>, then
// config/<sub> of the data directory (core::data_dir(): $MIMIC_DATA_DIR, the install prefix or the source
// tree), where <sub> is "skeletons" or "markersets". Only existing folders are returned.
std::vector<std::filesystem::path> preset_directories(PresetKind kind);
// Every *.yaml of those folders, sorted by file name within a folder; a name found twice keeps the first.
std::vector<LandmarkPreset> shipped_presets(PresetKind kind);

// How a preset applies to one clip.
struct PresetMatch {
  // Per landmark: the joint or marker indices in the clip (one joint; all the markers averaged); empty
  // when the preset does not provide the landmark or the clip lacks it.
  std::array<std::vector<int>, kLandmarkCount> indices;
  std::vector<Landmark> missing_required;
  int resolved_count = 0;

  // Sets resolved_count and missing_required from indices.
  void count();
  bool usable() const { return missing_required.empty(); }
  bool resolved(Landmark l) const { return !indices[static_cast<std::size_t>(index(l))].empty(); }
};

// Resolves `preset` against `clip`. A preset of the wrong kind resolves nothing.
PresetMatch match_preset(const LandmarkPreset& preset, const mocap::Clip& clip);

struct SelectedPreset {
  LandmarkPreset preset;
  PresetMatch match;
  // How each landmark was decided, one line each ("preset 'mixamo': joint LeftArm", "structure: ...",
  // "name 'forearm', geometry agrees"); empty for a landmark not resolved. notes: what else the mapping
  // noticed (how left and right were told, disagreements).
  std::array<std::string, kLandmarkCount> evidence;
  std::vector<std::string> notes;
};

// The preset for `clip`. `name_or_file` empty: the shipped preset of the clip's kind that resolves the
// most landmarks among those that resolve every required one (ties: the first in file-name order).
// "automatic": the mapping found from the clip itself (skeleton_mapping.hpp), used also when no shipped
// preset fits. Otherwise the shipped preset of that name, or a YAML file when it names an existing file (or
// ends in .yaml / .yml). Throws InputError when no preset fits: the message lists the missing landmarks of
// the closest preset, the names it looked for, and the joint names or marker labels of the clip.
SelectedPreset select_preset(const mocap::Clip& clip, std::string_view name_or_file = {});

}  // namespace mimic::retarget
