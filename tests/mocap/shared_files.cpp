// Every third-party file in ../shared/mocap reads with the frame counts, rates, joint / marker counts,
// units and up axes listed in ../shared/mocap/README.md (read from there, never copied here).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "mimic/mocap/load.hpp"
#include "mocap/test_helpers.hpp"
#include "support/shared_data.hpp"

namespace mimic::mocap {
namespace {

struct BvhFacts {
  const char* file;
  int frames;
  double rate;
  int joints;  // without End Sites
  int end_sites;
  int channels;
  LengthUnit unit;
  Axis up;
};

const BvhFacts kBvhFiles[] = {
    {"assimp__Boxing_Toes.bvh", 3070, 100.0, 21, 5, 66, LengthUnit::kCentimetre, {1, 1}},
    {"assimp__cmu_01_03.bvh", 4511, 120.0, 31, 7, 96, LengthUnit::kCmu, {1, 1}},
    {"bvh11__cmu_131_01.bvh", 994, 120.0, 31, 7, 96, LengthUnit::kCmu, {1, 1}},
    {"bvh11__cmu_scaled_131_01.bvh", 995, 120.0, 31, 7, 96, LengthUnit::kMetre, {1, 1}},
    {"bvh11__cmu_131_03.bvh", 1102, 120.0, 31, 7, 96, LengthUnit::kCmu, {1, 1}},
    {"makehuman__walk1.bvh", 14, 24.0, 75, 16, 228, LengthUnit::kDecimetre, {2, 1}},
    {"makehuman__benchmark_pose.bvh", 1, 24.0, 163, 49, 891, LengthUnit::kDecimetre, {2, 1}},
    {"bvhio__example_blanklines.bvh", 2, 30.0, 18, 5, 57, LengthUnit::kInch, {1, 1}},
};

struct C3dFacts {
  const char* file;
  int markers;
  int frames;
  int first_frame;
  double rate;
  LengthUnit unit;
  Axis up;
  const char* head_marker;  // a marker that must be at head height (nullptr: lower-body set)
};

const C3dFacts kC3dFiles[] = {
    {"c3dorg-s01__Eb015pi.c3d", 26, 450, 1, 50.0, LengthUnit::kMillimetre, {2, 1}, nullptr},
    {"c3dorg-s01__Eb015pr.c3d", 26, 450, 1, 50.0, LengthUnit::kMillimetre, {2, 1}, nullptr},
    {"c3dorg-s01__Eb015vi.c3d", 26, 450, 1, 50.0, LengthUnit::kMillimetre, {2, 1}, nullptr},
    {"c3dorg-s01__Eb015vr.c3d", 26, 450, 1, 50.0, LengthUnit::kMillimetre, {2, 1}, nullptr},
    {"c3dorg-s01__Eb015si.c3d", 26, 450, 1, 50.0, LengthUnit::kMillimetre, {2, 1}, nullptr},
    {"c3dorg-s01__Eb015sr.c3d", 26, 450, 1, 50.0, LengthUnit::kMillimetre, {2, 1}, nullptr},
    {"btkdata__vicon_shd01.c3d", 27, 237, 91, 250.0, LengthUnit::kMillimetre, {2, 1}, "LFHD"},
    {"btkdata__optitrack_mocap36.c3d", 36, 1380, 1, 100.0, LengthUnit::kMillimetre, {2, 1}, "Skeleton_Head1"},
    {"c3dorg-s00__nexgen_test1.c3d", 40, 721, 1, 128.0, LengthUnit::kMetre, {1, 1}, "LFHD"},
    {"ezc3d__Qualisys.c3d", 55, 340, 705, 200.0, LengthUnit::kMillimetre, {2, 1}, "L_HDF"},
    {"c3dorg-s34__xsens_AlbertoINT.c3d", 40, 4921, 1, 120.0, LengthUnit::kMillimetre, {2, 1}, "pTopOfHead"},
};

class SharedBvh : public testing::TestWithParam<BvhFacts> {};

TEST_P(SharedBvh, MatchesTheReadme) {
  const BvhFacts& facts = GetParam();
  MIMIC_REQUIRE_SHARED(path, std::string("mocap/bvh/") + facts.file);
  const Clip clip = load_clip(path);
  ASSERT_TRUE(clip.is_skeleton());
  const SkeletonClip& s = clip.skeleton();
  EXPECT_EQ(s.frame_count(), facts.frames);
  // Frame times are printed rounded in the files (0.0083333, 0.008333 s): the rate is off by up to
  // 0.0048 Hz (measured, the metre-scaled CMU file) from the README's round figure.
  EXPECT_NEAR(s.rate(), facts.rate, 0.01);
  int end_sites = 0;
  for (const Joint& j : s.joints) end_sites += j.end_site;
  EXPECT_EQ(static_cast<int>(s.joints.size()) - end_sites, facts.joints);
  EXPECT_EQ(end_sites, facts.end_sites);
  EXPECT_EQ(s.channel_count(), facts.channels);
  EXPECT_EQ(clip.source_unit, facts.unit);
  EXPECT_EQ(clip.unit_provenance, Provenance::kDetected);
  EXPECT_EQ(clip.source_up, facts.up);
  EXPECT_EQ(clip.up_provenance, Provenance::kDetected);
  EXPECT_TRUE(clip.forward_known);
  // Within 45 deg of +x after conversion (0.7854 rounds pi / 4 up; 1e-9 for the atan2); measured at most
  // 0.36 rad (MakeHuman).
  EXPECT_LE(std::abs(clip.initial_heading), 0.7854 + 1e-9);

  // A human, in metres, standing along +z: head well above the feet, stature plausible.
  int head = -1, foot = -1;
  for (std::size_t j = 0; j < s.joints.size(); ++j) {
    const std::string& n = s.joints[j].name;
    if (head < 0 && (n == "Head" || n == "head")) head = static_cast<int>(j);
    if (foot < 0 && (n.find("Foot") != std::string::npos || n.find("foot") != std::string::npos ||
                     n.find("Ankle") != std::string::npos))
      foot = static_cast<int>(j);
  }
  ASSERT_GE(head, 0);
  ASSERT_GE(foot, 0);
  const auto g = s.global_transforms(0);
  const double head_above_foot = g[head].translation().z() - g[foot].translation().z();
  EXPECT_GT(head_above_foot, 0.5);  // the MakeHuman benchmark pose sits on the floor in a split
  EXPECT_LT(head_above_foot, 2.0);
  EXPECT_GT(clip.source_height * metres_per_unit(clip.source_unit), 1.2);
  EXPECT_LT(clip.source_height * metres_per_unit(clip.source_unit), 2.0);
}

// Bones are rigid: the distance between a joint and its parent is the same at every frame (joints with
// position channels are the exception: they may slide).
TEST_P(SharedBvh, BoneLengthsAreConstantOverFrames) {
  const BvhFacts& facts = GetParam();
  MIMIC_REQUIRE_SHARED(path, std::string("mocap/bvh/") + facts.file);
  const SkeletonClip s = load_clip(path).skeleton();
  std::vector<bool> rigid(s.joints.size(), true);
  for (std::size_t j = 0; j < s.joints.size(); ++j)
    for (ChannelType c : s.joints[j].channels) rigid[j] = rigid[j] && is_rotation(c);
  std::vector<Eigen::Isometry3d> g;
  const int step = std::max(1, s.frame_count() / 200);
  double worst = 0.0;
  int checked = 0;
  for (int f = 0; f < s.frame_count(); f += step) {
    s.global_transforms(f, g);
    for (std::size_t j = 1; j < s.joints.size(); ++j) {
      if (!rigid[j]) continue;
      const double length = (g[j].translation() - g[s.joints[j].parent].translation()).norm();
      worst = std::max(worst, std::abs(length - s.joints[j].offset.norm()));
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
  // Forward kinematics down chains of ~10 rotations: round-off (measured at most 2.4e-16 m).
  EXPECT_LT(worst, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(ReadmeFacts, SharedBvh, testing::ValuesIn(kBvhFiles), [](const auto& info) {
  std::string name = info.param.file;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
});

TEST(SharedBvhQuirks, BoxingToesDeclares3069FramesButHolds3070Rows) {
  MIMIC_REQUIRE_SHARED(path, "mocap/bvh/assimp__Boxing_Toes.bvh");
  test::LogCapture log;
  const Clip clip = load_clip(path);
  EXPECT_EQ(clip.frame_count(), 3070);
  EXPECT_NE(log.text().find("'Frames: 3069' but the file holds 3070 data rows"), std::string::npos)
      << log.text();
}

// 131_01 mixes rotation orders: 19 joints ZYX, 12 arm joints ZXY (read in file axes to see the orders).
TEST(SharedBvhQuirks, Cmu131MixedChannelOrders) {
  MIMIC_REQUIRE_SHARED(path, "mocap/bvh/bvh11__cmu_131_01.bvh");
  LoadOptions file_axes;
  file_axes.unit = LengthUnit::kCmu;
  file_axes.up = Axis{2, 1};
  file_axes.face_forward = false;
  const SkeletonClip s = load_clip(path, file_axes).skeleton();
  std::map<std::string, int> orders;
  for (const Joint& j : s.joints) {
    std::string order;
    for (ChannelType c : j.channels)
      if (is_rotation(c)) order += static_cast<char>('X' + channel_axis(c));
    if (!order.empty()) ++orders[order];
  }
  EXPECT_EQ(orders["ZYX"], 19);
  EXPECT_EQ(orders["ZXY"], 12);
  EXPECT_EQ(s.joints[s.joint_index("LeftShoulder")].channels[1], ChannelType::kXrotation);
}

// The CMU-unit file and the bvh11 author's metre-scaled twin give the same motion once both are in metres:
// offsets and root translations scale by 0.056444, rotations agree to about 2e-5 degrees.
TEST(SharedBvhQuirks, Cmu131ForwardKinematicsMatchesItsMetreScaledTwin) {
  MIMIC_REQUIRE_SHARED(unscaled_path, "mocap/bvh/bvh11__cmu_131_01.bvh");
  MIMIC_REQUIRE_SHARED(scaled_path, "mocap/bvh/bvh11__cmu_scaled_131_01.bvh");
  const Clip unscaled = load_clip(unscaled_path), scaled = load_clip(scaled_path);
  // The CMU unit is 0.0254 / 0.45 = 0.0564444... m; 0.056444 is the README's 6 decimals (measured 4.4e-7).
  EXPECT_NEAR(unscaled.conversion.scale, 0.056444, 1e-6);
  EXPECT_EQ(scaled.conversion.scale, 1.0);
  EXPECT_TRUE(unscaled.conversion.rotation.isApprox(scaled.conversion.rotation));
  const SkeletonClip &a = unscaled.skeleton(), &b = scaled.skeleton();
  ASSERT_EQ(a.joints.size(), b.joints.size());
  for (std::size_t j = 0; j < a.joints.size(); ++j) {
    EXPECT_EQ(a.joints[j].name, b.joints[j].name);
    // The metre file's offsets are rounded to its decimals (measured 3.4e-6 m).
    EXPECT_NEAR((a.joints[j].offset - b.joints[j].offset).norm(), 0.0, 1e-5);
  }
  std::vector<Eigen::Isometry3d> ga, gb;
  double worst_position = 0.0, worst_rotation = 0.0;
  for (int f = 0; f < a.frame_count(); ++f) {
    a.global_transforms(f, ga);
    b.global_transforms(f, gb);
    for (std::size_t j = 0; j < ga.size(); ++j) {
      worst_position = std::max(worst_position, (ga[j].translation() - gb[j].translation()).norm());
      worst_rotation = std::max(worst_rotation, (ga[j].linear() - gb[j].linear()).cwiseAbs().maxCoeff());
    }
  }
  // The scaled file keeps fewer decimals: measured 1.9e-5 m and 1.3e-4 (rotation matrix entries); a unit
  // or channel-order error is O(0.01) and O(1).
  EXPECT_LT(worst_position, 5e-5);  // metres
  EXPECT_LT(worst_rotation, 3e-4);
}

// The README counts 134 six-channel joints as "non-root"; the count includes the root: 133 children + root
// (134 x 6 + 29 x 3 = 891 channels).
TEST(SharedBvhQuirks, MakehumanBenchmarkHasSixChannelsOnNonRootJoints) {
  MIMIC_REQUIRE_SHARED(path, "mocap/bvh/makehuman__benchmark_pose.bvh");
  const SkeletonClip s = load_clip(path).skeleton();
  int six = 0, three = 0;
  for (std::size_t j = 0; j < s.joints.size(); ++j) {
    six += s.joints[j].channels.size() == 6;
    three += s.joints[j].channels.size() == 3;
  }
  EXPECT_EQ(six, 134);
  EXPECT_EQ(three, 29);
  EXPECT_GE(s.joint_index("toe1-1.R"), 0);
  EXPECT_GE(s.joint_index("finger3-2.L"), 0);
}

// ----- C3D -----

class SharedC3d : public testing::TestWithParam<C3dFacts> {};

TEST_P(SharedC3d, MatchesTheReadme) {
  const C3dFacts& facts = GetParam();
  MIMIC_REQUIRE_SHARED(path, std::string("mocap/c3d/") + facts.file);
  const Clip clip = load_clip(path);
  ASSERT_TRUE(clip.is_markers());
  const MarkerClip& m = clip.markers();
  EXPECT_EQ(m.marker_count(), facts.markers);
  EXPECT_EQ(m.frame_count(), facts.frames);
  EXPECT_EQ(m.first_frame, facts.first_frame);
  EXPECT_DOUBLE_EQ(m.rate, facts.rate);
  EXPECT_EQ(clip.source_unit, facts.unit);
  EXPECT_EQ(clip.unit_provenance, Provenance::kDeclared);
  EXPECT_EQ(clip.source_up, facts.up);
  EXPECT_EQ(clip.up_provenance, Provenance::kDetected);
  EXPECT_TRUE(clip.forward_known);

  // Converted: valid samples lie between the floor and 2.2 m, and each marker has some valid samples.
  double lowest = 1e9, highest = -1e9;
  for (int f = 0; f < m.frame_count(); ++f)
    for (int k = 0; k < m.marker_count(); ++k)
      if (m.valid(f, k)) {
        lowest = std::min(lowest, m.position(f, k).z());
        highest = std::max(highest, m.position(f, k).z());
      }
  EXPECT_GT(lowest, -0.1);
  EXPECT_LT(highest, 2.2);
  if (facts.head_marker) {
    const int head = m.marker_index(facts.head_marker);
    ASSERT_GE(head, 0) << facts.head_marker;
    for (int f = 0; f < m.frame_count(); ++f)
      if (m.valid(f, head)) {
        EXPECT_GT(m.position(f, head).z(), 1.3);
        EXPECT_LT(m.position(f, head).z(), 2.0);
        break;
      }
  }
}

INSTANTIATE_TEST_SUITE_P(ReadmeFacts, SharedC3d, testing::ValuesIn(kC3dFiles), [](const auto& info) {
  std::string name = info.param.file;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
});

// The six Eb015 files (Intel / DEC / MIPS x int / float) hold the same data: same labels, same validity
// of every sample, same positions (to the integer files' quantisation, POINT:SCALE = 0.0833 mm).
TEST(SharedC3dQuirks, Eb015VariantsDecodeToTheSameMarkers) {
  const char* variants[] = {"pi", "pr", "vi", "vr", "si", "sr"};
  std::vector<Clip> clips;
  for (const char* v : variants) {
    MIMIC_REQUIRE_SHARED(path, std::string("mocap/c3d/c3dorg-s01__Eb015") + v + ".c3d");
    clips.push_back(load_clip(path));
  }
  const MarkerClip& reference = clips[0].markers();
  EXPECT_EQ(reference.labels.front(), "RFT1");
  EXPECT_EQ(reference.labels.back(), "pv4");  // lower case in the file; the 22 extra labels are dropped
  // The example quoted in the README: frame 10, RFT1 = (250.833, 225.833, 36.167) mm in the file's axes.
  for (std::size_t i = 0; i < clips.size(); ++i) {
    SCOPED_TRACE(variants[i]);
    const MarkerClip& m = clips[i].markers();
    EXPECT_EQ(m.labels, reference.labels);
    const int rft1 = m.marker_index("RFT1");
    ASSERT_EQ(rft1, 0);
    const Eigen::Vector3d mm = clips[i].conversion.to_source(m.position(10, rft1));
    // The README's 3 decimals of multiples of 1/12 mm: off by 1/3000 mm (measured 3.4e-4); 5e-4 is
    // the rounding of the last decimal.
    EXPECT_NEAR(mm.x(), 250.833, 5e-4);
    EXPECT_NEAR(mm.y(), 225.833, 5e-4);
    EXPECT_NEAR(mm.z(), 36.167, 5e-4);
    EXPECT_TRUE(clips[i].conversion.rotation.isApprox(clips[0].conversion.rotation));
    int differences = 0;
    double worst = 0.0;
    for (int f = 0; f < m.frame_count(); ++f)
      for (int k = 0; k < m.marker_count(); ++k) {
        differences += m.state(f, k) != reference.state(f, k);
        if (m.valid(f, k) && reference.valid(f, k))
          worst = std::max(worst, (m.position(f, k) - reference.position(f, k)).norm());
      }
    EXPECT_EQ(differences, 0);
    // Integer x POINT:SCALE against the float files' single-precision millimetres (~250 mm x 6e-8):
    // measured 1.1e-7 m; a wrong scale or byte order is millimetres.
    EXPECT_LT(worst, 1e-6);  // metres
  }
  // The files do have missing samples (negative residuals), so the validity comparison is not vacuous.
  EXPECT_FALSE(reference.unfilled_gaps.empty());
}

TEST(SharedC3dQuirks, ViconSubjectPrefixStripped) {
  MIMIC_REQUIRE_SHARED(path, "mocap/c3d/btkdata__vicon_shd01.c3d");
  const MarkerClip m = load_clip(path).markers();
  const int rfhd = m.marker_index("RFHD");
  ASSERT_GE(rfhd, 0);
  EXPECT_EQ(m.raw_labels[rfhd], "AbcdeFghijk:RFHD");
  for (const char* label : {"LFHD", "RBHD", "C7", "T10", "CLAV", "STRN", "LFIN", "RWRA", "LWRB"})
    EXPECT_GE(m.marker_index(label), 0) << label;
}

TEST(SharedC3dQuirks, OptiTrackMalformedLabelsParameterRecovered) {
  MIMIC_REQUIRE_SHARED(path, "mocap/c3d/btkdata__optitrack_mocap36.c3d");
  const MarkerClip m = load_clip(path).markers();
  EXPECT_EQ(m.labels.front(), "Skeleton_Hip2");
  EXPECT_EQ(m.labels.back(), "Skeleton_RFoot2");
  for (const char* label : {"Skeleton_Head1", "Skeleton_Head3", "Skeleton_LHand1", "Skeleton_Chest3"})
    EXPECT_GE(m.marker_index(label), 0) << label;
  std::set<std::string> distinct(m.labels.begin(), m.labels.end());
  EXPECT_EQ(distinct.size(), 36u);
}

TEST(SharedC3dQuirks, NexgenPlugInGaitFullBody) {
  MIMIC_REQUIRE_SHARED(path, "mocap/c3d/c3dorg-s00__nexgen_test1.c3d");
  const MarkerClip m = load_clip(path).markers();
  for (const char* label :
       {"LFHD", "RFHD", "LBHD", "RBHD", "C7",   "T10",  "CLAV", "STRN", "LSHO", "LELB", "LWRA",
        "LWRB", "LFIN", "RFIN", "LASI", "RPSI", "LKNE", "LANK", "LHEE", "LTOE", "RMT5"})
    EXPECT_GE(m.marker_index(label), 0) << label;
}

}  // namespace
}  // namespace mimic::mocap
