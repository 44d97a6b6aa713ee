#include "mimic/retarget/landmark.hpp"

#include <algorithm>

namespace mimic::retarget {

namespace {

constexpr std::array<std::string_view, kLandmarkCount> kKeys = {
    "pelvis",        "pelvis_front", "chest",          "neck",        "head",        "head_front",
    "head_left",     "head_right",   "right_shoulder", "right_elbow", "right_wrist", "right_hand",
    "left_shoulder", "left_elbow",   "left_wrist",     "left_hand",   "right_hip",   "right_knee",
    "right_ankle",   "right_toe",    "left_hip",       "left_knee",   "left_ankle",  "left_toe",
    "right_heel",    "left_heel",
};

}  // namespace

std::string_view to_string(Landmark landmark) { return kKeys[static_cast<std::size_t>(index(landmark))]; }

std::span<const std::string_view> landmark_keys() { return kKeys; }

std::optional<Landmark> parse_landmark(std::string_view key) {
  const auto it = std::find(kKeys.begin(), kKeys.end(), key);
  if (it == kKeys.end()) return std::nullopt;
  return static_cast<Landmark>(it - kKeys.begin());
}

bool is_required(Landmark landmark) {
  return std::find(kRequiredLandmarks.begin(), kRequiredLandmarks.end(), landmark) !=
         kRequiredLandmarks.end();
}

}  // namespace mimic::retarget
