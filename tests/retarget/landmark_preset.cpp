// Landmark presets: YAML reading, recognition of skeletons and marker sets, and the error for an unknown one.
#include "mimic/retarget/landmark_preset.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "mimic/core/error.hpp"
#include "mimic/retarget/landmark_track.hpp"
#include "support/marker_clip.hpp"
#include "support/temp_path.hpp"

namespace mimic::retarget {
namespace {

// A minimal skeleton clip: the given joint names in a chain (parents before children), 2 frames.
mocap::Clip chain_clip(const std::vector<std::string>& names) {
  mocap::SkeletonClip s;
  for (std::size_t i = 0; i < names.size(); ++i) {
    mocap::Joint j;
    j.name = names[i];
    j.parent = static_cast<int>(i) - 1;
    j.offset = Eigen::Vector3d(0.0, i % 2 ? 0.1 : -0.1, 0.1);
    s.joints.push_back(j);
  }
  s.values = mocap::ChannelMatrix::Zero(2, 0);
  s.frame_time = 0.01;
  mocap::Clip clip;
  clip.data = std::move(s);
  clip.source = "chain.bvh";
  return clip;
}

const std::vector<std::string> kMixamo = {"mixamorig:Hips",
                                          "mixamorig:Spine",
                                          "mixamorig:Spine1",
                                          "mixamorig:Spine2",
                                          "mixamorig:Neck",
                                          "mixamorig:Head",
                                          "mixamorig:LeftShoulder",
                                          "mixamorig:LeftArm",
                                          "mixamorig:LeftForeArm",
                                          "mixamorig:LeftHand",
                                          "mixamorig:LeftHandMiddle1",
                                          "mixamorig:RightShoulder",
                                          "mixamorig:RightArm",
                                          "mixamorig:RightForeArm",
                                          "mixamorig:RightHand",
                                          "mixamorig:RightHandMiddle1",
                                          "mixamorig:LeftUpLeg",
                                          "mixamorig:LeftLeg",
                                          "mixamorig:LeftFoot",
                                          "mixamorig:RightUpLeg",
                                          "mixamorig:RightLeg",
                                          "mixamorig:RightFoot"};

TEST(LandmarkPreset, EveryShippedPresetLoadsWithAllRequiredLandmarks) {
  for (PresetKind kind : {PresetKind::kSkeleton, PresetKind::kMarkers}) {
    const auto presets = shipped_presets(kind);
    EXPECT_GE(presets.size(), kind == PresetKind::kSkeleton ? 8u : 4u);
    for (const auto& p : presets) {
      EXPECT_EQ(p.kind, kind) << p.name;
      for (Landmark l : kRequiredLandmarks)
        EXPECT_FALSE(p.sources[static_cast<std::size_t>(index(l))].empty()) << p.name << " " << to_string(l);
    }
  }
}

TEST(LandmarkPreset, LandmarkNamesRoundTrip) {
  for (int i = 0; i < kLandmarkCount; ++i) {
    const auto l = static_cast<Landmark>(i);
    EXPECT_EQ(parse_landmark(to_string(l)), l);
  }
  EXPECT_FALSE(parse_landmark("elbow").has_value());
}

std::string preset_error(std::string_view yaml) {
  try {
    parse_landmark_preset(yaml, "mine.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// Every error names the file, the line, the key and what was expected.
TEST(LandmarkPreset, StrictYamlNamesTheLineAndKey) {
  const std::string head = "name: x\nkind: skeleton\nlandmarks:\n  pelvis: Hips\n";
  const std::pair<std::string, std::string> cases[] = {
      {head + "  elbow: Foo\n", "mine.yaml:line 5: unknown key 'landmarks.elbow' (expected one of: pelvis, "},
      {head + "  right_elbw: Foo\n",
       "mine.yaml:line 5: unknown key 'landmarks.right_elbw' (did you mean "
       "'right_elbow'? expected one of: pelvis, "},
      {head + "  pelvis: Root\n", "mine.yaml:line 5: duplicate key 'landmarks.pelvis' (first on line 4)"},
      {head + "  neck: []\n",
       "mine.yaml:line 5: landmarks.neck: expected a name or a list of names, found an "
       "empty list"},
      {head + "  neck: {a: b}\n",
       "mine.yaml:line 5: landmarks.neck: expected a name or a list of names, "
       "found a mapping"},
      {head + "  neck: [N, [M]]\n",
       "mine.yaml:line 5: landmarks.neck: expected a joint or marker name, "
       "found a list in the list"},
      {"name: x\nkind: bones\nlandmarks: {}\n",
       "mine.yaml:line 2: kind: expected skeleton or markers, "
       "found 'bones'"},
      {"name: x\nkind: skeleton\n", "mine.yaml:line 1: missing required key 'landmarks'"},
      {"name: x\nkind: skeleton\nlandmarks: 3\n", "mine.yaml:line 3: landmarks: expected a mapping"},
      {"name: x\nkind: skeleton\nlandmarks: {}\nextra: 1\n",
       "mine.yaml:line 4: unknown key 'extra' (expected one of: name, kind, description, landmarks)"},
      {"name: [x\n", "mine.yaml:line 2: invalid YAML"},
  };
  for (const auto& [yaml, expected] : cases) {
    const std::string what = preset_error(yaml);
    EXPECT_NE(what.find(expected), std::string::npos) << yaml << "\n" << what;
  }
  const LandmarkPreset preset = parse_landmark_preset(head + "  right_hand: [A, B]\n", "mine.yaml");
  EXPECT_EQ(preset.sources[static_cast<std::size_t>(index(Landmark::kRightHand))],
            (std::vector<std::string>{"A", "B"}));
}

TEST(LandmarkPreset, NamespacePrefixesAreIgnoredAndTheBestPresetWins) {
  const mocap::Clip clip = chain_clip(kMixamo);
  const SelectedPreset s = select_preset(clip);
  EXPECT_EQ(s.preset.name, "mixamo");  // cmu-motionbuilder matches too, but resolves fewer landmarks
  EXPECT_TRUE(s.match.resolved(Landmark::kChest));
  EXPECT_TRUE(s.match.resolved(Landmark::kLeftHand));
  EXPECT_FALSE(s.match.resolved(Landmark::kLeftToe));
}

TEST(LandmarkPreset, UnknownSkeletonListsMissingLandmarksAndJointNames) {
  const mocap::Clip clip = chain_clip({"Hips", "LeftUpLeg", "LeftLeg", "RightUpLeg", "RightLeg"});
  try {
    select_preset(clip);
    FAIL();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("chain.bvh"), std::string::npos) << what;
    EXPECT_NE(what.find("unknown skeleton"), std::string::npos) << what;
    EXPECT_NE(what.find("neck"), std::string::npos) << what;
    EXPECT_NE(what.find("right_elbow"), std::string::npos) << what;
    EXPECT_NE(what.find("Hips, LeftUpLeg, LeftLeg, RightUpLeg, RightLeg"), std::string::npos) << what;
  }
}

TEST(LandmarkPreset, ExplicitPresetByNameOrFile) {
  const mocap::Clip clip = chain_clip(kMixamo);
  EXPECT_EQ(select_preset(clip, "cmu-motionbuilder").preset.name, "cmu-motionbuilder");
  EXPECT_THROW(select_preset(clip, "no-such-preset"), InputError);
  EXPECT_THROW(select_preset(clip, "plug-in-gait"), InputError);  // a marker preset for a skeleton

  // A user's mapping for joints no shipped preset knows.
  const std::vector<std::string> names = {"P", "C", "N", "H", "RS", "RE", "RW", "LS", "LE", "LW"};
  const auto file = test::unique_temp_path("custom_preset", ".yaml");
  {
    std::ofstream out(file);
    out << "name: custom\nkind: skeleton\nlandmarks:\n  pelvis: P\n  chest: C\n  neck: N\n  head: H\n"
           "  right_shoulder: RS\n  right_elbow: RE\n  right_wrist: RW\n"
           "  left_shoulder: LS\n  left_elbow: LE\n  left_wrist: [LW]\n";
  }
  const mocap::Clip custom = chain_clip(names);
  EXPECT_THROW(select_preset(custom), InputError);
  const SelectedPreset s = select_preset(custom, file.string());
  EXPECT_EQ(s.preset.name, "custom");
  EXPECT_EQ(s.match.resolved_count, 10);
  std::filesystem::remove(file);
}

TEST(LandmarkPreset, MarkerLandmarksAreCentroidsAndGapsAreInterpolated) {
  std::vector<std::string> labels = {"LASI", "RASI", "LPSI", "RPSI", "C7",   "CLAV", "STRN", "T10",
                                     "LFHD", "RFHD", "LBHD", "RBHD", "LSHO", "LELB", "LWRA", "LWRB",
                                     "LFIN", "RSHO", "RELB", "RWRA", "RWRB", "RFIN"};
  mocap::Clip clip = test::marker_clip(labels);
  auto& m = clip.markers();
  const int lwra = m.marker_index("LWRA");
  m.states[1 * labels.size() + static_cast<std::size_t>(lwra)] = mocap::SampleState::kMissing;
  m.positions[1 * labels.size() + static_cast<std::size_t>(lwra)] = Eigen::Vector3d::Constant(std::nan(""));

  const LandmarkTrack track = extract_landmarks(clip);
  EXPECT_EQ(track.preset, "plug-in-gait");
  EXPECT_TRUE(track.head_orientation);
  EXPECT_FALSE(track.has(Landmark::kLeftKnee));  // upper-body set: legs absent, not an error
  const int lwrb = m.marker_index("LWRB");
  for (int f : {0, 2}) {
    const Eigen::Vector3d mid = 0.5 * (m.position(f, lwra) + m.position(f, lwrb));
    // A two-marker centroid of metre-scale positions: a few ulp (2.2e-16 each); measured 0.
    EXPECT_LE((track.frames[static_cast<std::size_t>(f)][Landmark::kLeftWrist] - mid).norm(), 1e-14);
  }
  // Frame 1 lacked LWRA: the wrist is interpolated between frames 0 and 2.
  const Eigen::Vector3d expected =
      0.5 * (track.frames[0][Landmark::kLeftWrist] + track.frames[2][Landmark::kLeftWrist]);
  // Linear interpolation halfway, metre-scale: a few ulp whatever the formula; measured 0.
  EXPECT_LE((track.frames[1][Landmark::kLeftWrist] - expected).norm(), 1e-14);
}

}  // namespace
}  // namespace mimic::retarget
