// Automatic mapping of marker sets (marker_mapping.hpp): the shipped Plug-in Gait clip relabelled in other
// spellings (L_ASI, Left.ASI, lasi) gives, without a preset, the same landmarks as the preset on the
// original labels; the shared C3D clips map automatically like their presets; meaningless labels are an
// error that says so.
#include "mimic/retarget/marker_mapping.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <functional>
#include <string>
#include <vector>

#include "mimic/core/error.hpp"
#include "mimic/mocap/load.hpp"
#include "mimic/retarget/landmark_track.hpp"
#include "support/marker_clip.hpp"
#include "support/shared_data.hpp"

namespace mimic::retarget {
namespace {

// "LASI" -> spelled(side "L", fragment "ASI"); labels without a side letter keep their fragment.
std::string respell(const std::string& label,
                    const std::function<std::string(char, const std::string&)>& spelled) {
  static const std::vector<std::string> kCentre = {"C7", "CLAV", "STRN", "T10", "RBAK"};
  for (const auto& c : kCentre)
    if (label == c) return spelled(0, label);
  if (label.size() > 1 && (label[0] == 'L' || label[0] == 'R')) return spelled(label[0], label.substr(1));
  return spelled(0, label);
}

TEST(MarkerMapping, RespelledPlugInGaitGivesThePresetLandmarks) {
  const mocap::Clip original = mocap::load_clip(test::source_dir() / "data" / "mocap" / "boxing.c3d");
  const SelectedPreset preset = select_preset(original);
  ASSERT_EQ(preset.preset.name, "plug-in-gait");
  const LandmarkTrack expected = extract_landmarks(original, preset);

  const std::vector<std::pair<std::string, std::function<std::string(char, const std::string&)>>> spellings =
      {
          {"L_ASI", [](char s, const std::string& f) { return s ? std::string(1, s) + "_" + f : f; }},
          {"asi.l",
           [](char s, const std::string& f) {
             std::string lower;
             for (char c : f) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
             return s ? lower + "." + static_cast<char>(std::tolower(static_cast<unsigned char>(s))) : lower;
           }},
          {"Left_ASI",
           [](char s, const std::string& f) {
             return s ? std::string(s == 'L' ? "Left_" : "Right_") + f : f;
           }},
      };
  for (const auto& [name, spelled] : spellings) {
    SCOPED_TRACE(name);
    mocap::Clip clip = original;
    for (auto& label : clip.markers().labels) label = respell(label, spelled);
    clip.markers().raw_labels = clip.markers().labels;
    EXPECT_THROW(select_preset(clip, "plug-in-gait"), InputError);  // the preset's exact labels are gone
    const SelectedPreset automatic = select_preset(clip);
    ASSERT_EQ(automatic.preset.name, "automatic");
    EXPECT_NE(automatic.preset.description.find("plug-in-gait"), std::string::npos);
    EXPECT_EQ(automatic.match.indices, preset.match.indices);
    const LandmarkTrack track = extract_landmarks(clip, automatic);
    ASSERT_EQ(track.frame_count(), expected.frame_count());
    EXPECT_EQ(track.available, expected.available);
    for (int f = 0; f < track.frame_count(); f += 97) {
      for (int i = 0; i < kLandmarkCount; ++i) {
        const auto& a = track.frames[static_cast<std::size_t>(f)].position[static_cast<std::size_t>(i)];
        const auto& b = expected.frames[static_cast<std::size_t>(f)].position[static_cast<std::size_t>(i)];
        if (b.allFinite()) EXPECT_EQ(a, b) << f << " " << to_string(static_cast<Landmark>(i));
      }
    }
  }
}

TEST(MarkerMapping, SharedClipsMapLikeTheirPresets) {
  const std::vector<std::string> files = {"c3d/btkdata__optitrack_mocap36.c3d",
                                          "c3d/btkdata__vicon_shd01.c3d", "c3d/c3dorg-s00__nexgen_test1.c3d",
                                          "c3d/c3dorg-s34__xsens_AlbertoINT.c3d", "c3d/ezc3d__Qualisys.c3d"};
  for (const auto& file : files) {
    SCOPED_TRACE(file);
    MIMIC_REQUIRE_SHARED(path, "mocap/" + file);
    const mocap::Clip clip = mocap::load_clip(path);
    const SelectedPreset preset = select_preset(clip);
    const AutomaticMapping automatic = map_markers(clip);
    ASSERT_TRUE(automatic.found) << automatic.failure;
    EXPECT_NE(automatic.selected.preset.description.find(preset.preset.name), std::string::npos)
        << automatic.selected.preset.description;
    EXPECT_EQ(automatic.selected.match.indices, preset.match.indices);
  }
}

TEST(MarkerMapping, MeaninglessLabelsAreAnErrorThatSaysWhy) {
  for (const std::string prefix : {"M0", "*"}) {
    std::vector<std::string> labels;
    for (int i = 1; i <= 40; ++i)
      labels.push_back(prefix + (prefix == "M0" && i < 10 ? "0" : "") + std::to_string(i));
    const mocap::Clip clip = test::marker_clip(labels);
    const AutomaticMapping automatic = map_markers(clip);
    EXPECT_FALSE(automatic.found);
    EXPECT_NE(automatic.failure.find("carry no anatomical meaning"), std::string::npos) << automatic.failure;
    try {
      select_preset(clip);
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("carry no anatomical meaning"), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
  // Labels of a known family but no arms: the closest family and what it lacks.
  const AutomaticMapping legs =
      map_markers(test::marker_clip({"L_ASI", "R_ASI", "LKNE", "RKNE", "LANK", "RANK"}));
  EXPECT_FALSE(legs.found);
  EXPECT_NE(legs.failure.find("lacks"), std::string::npos) << legs.failure;
  EXPECT_NE(legs.failure.find("right_elbow"), std::string::npos) << legs.failure;
}

}  // namespace
}  // namespace mimic::retarget
