// Landmarks: the body points the retargeting reads from a clip, whatever the skeleton or marker set
// (joint centres for a skeleton, marker centroids for a marker set). A preset (landmark_preset.hpp) says
// which joints or markers give each landmark; landmark_track.hpp extracts them frame by frame.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace mimic::retarget {

enum class Landmark : std::uint8_t {
  kPelvis,       // pelvis centre (root joint; centroid of the pelvis markers)
  kPelvisFront,  // a point ahead of the pelvis centre (markers: the ASIS pair), to orient the pelvis
  kChest,        // upper torso
  kNeck,         // base of the neck, between the shoulders
  kHead,         // head (joint, or centroid of the head markers)
  kHeadFront,    // markers: a point ahead of the head landmark, to orient the head ...
  kHeadLeft,     // ... or its left and right sides (preferred when both are given)
  kHeadRight,
  kRightShoulder,
  kRightElbow,
  kRightWrist,
  kRightHand,  // a point on the hand beyond the wrist (knuckles, finger base)
  kLeftShoulder,
  kLeftElbow,
  kLeftWrist,
  kLeftHand,
  kRightHip,
  kRightKnee,
  kRightAnkle,
  kRightToe,
  kLeftHip,
  kLeftKnee,
  kLeftAnkle,
  kLeftToe,
  // Markers only: the back of the heel (calcaneus). With the toe it gives the foot's long axis, which the
  // ankle-to-toe line does not when the ankle is one malleolus (Plug-in Gait's RANK / LANK sits on the
  // lateral side, 4-6 cm off that axis: the line then points 15-25 degrees outwards). A skeleton's ankle
  // and toe joints lie on the axis, so skeletons need no heel. Last in the enumeration so that the other
  // landmarks keep their order in printed mappings and reports.
  kRightHeel,
  kLeftHeel,
};

inline constexpr int kLandmarkCount = static_cast<int>(Landmark::kLeftHeel) + 1;

// The landmarks without which an upper-body retargeting is impossible.
inline constexpr std::array<Landmark, 9> kRequiredLandmarks = {
    Landmark::kPelvis,        Landmark::kNeck,       Landmark::kHead,
    Landmark::kRightShoulder, Landmark::kRightElbow, Landmark::kRightWrist,
    Landmark::kLeftShoulder,  Landmark::kLeftElbow,  Landmark::kLeftWrist,
};

inline constexpr int index(Landmark l) { return static_cast<int>(l); }

// The key used in preset files: "pelvis", "pelvis_front", "right_shoulder", ...
std::string_view to_string(Landmark landmark);
// Every key, in the order of the enumeration.
std::span<const std::string_view> landmark_keys();
std::optional<Landmark> parse_landmark(std::string_view key);
bool is_required(Landmark landmark);

}  // namespace mimic::retarget
