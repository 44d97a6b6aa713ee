// Automatic landmark mapping (skeleton_mapping.hpp): the shipped boxing clip renamed into other naming
// families (with CRLF, zero-length End Sites, an inserted twist joint) maps without a preset to the same
// joints the preset finds on the original; the shared BVH clips map automatically to what their presets
// say; skeletons that are not humanoids are refused with one line naming what is missing.
#include "mimic/retarget/skeleton_mapping.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "mimic/core/error.hpp"
#include "mimic/mocap/load.hpp"
#include "mimic/retarget/joint_names.hpp"
#include "mimic/retarget/landmark_track.hpp"
#include "support/renamed_bvh.hpp"
#include "support/shared_data.hpp"

namespace mimic::retarget {
namespace {

const std::string kBoxing = test::boxing_bvh();

// The joint name per landmark ("" when not resolved).
std::vector<std::string> joint_names(const mocap::Clip& clip, const PresetMatch& match) {
  std::vector<std::string> out;
  for (const auto& idx : match.indices)
    out.push_back(idx.empty() ? "" : clip.skeleton().joints[static_cast<std::size_t>(idx.front())].name);
  return out;
}

std::string renamed(const std::map<std::string, std::string>& rename, const std::string& name) {
  const auto it = rename.find(name);
  return it == rename.end() ? name : it->second;
}

TEST(SkeletonMapping, JointNamesOfEveryFamilyGiveSideAndStem) {
  const std::unordered_set<std::string> names = {"lhumerus", "rhumerus", "LThumb", "RThumb", "lowerback"};
  const auto check = [&](std::string_view name, Side side, const std::string& base, bool helper = false) {
    const JointName n = parse_joint_name(name, names);
    EXPECT_EQ(n.side, side) << name;
    EXPECT_EQ(n.base, base) << name;
    EXPECT_EQ(n.helper, helper) << name;
  };
  check("mixamorig:LeftArm", Side::kLeft, "arm");
  check("RightUpperArm", Side::kRight, "upperarm");
  check("upper_arm.L", Side::kLeft, "upperarm");
  check("thigh_r", Side::kRight, "thigh");
  check("L_Knee", Side::kLeft, "knee");
  check("lhumerus", Side::kLeft, "humerus");
  check("LThumb", Side::kLeft, "thumb");
  check("lowerback", Side::kNone, "lowerback");  // no "rowerback": the l is not a side
  check("LeftForeArmTwist", Side::kLeft, "forearmtwist", true);
  check("__Clavicle_L", Side::kLeft, "clavicle", true);
  check("Character1|Hips", Side::kNone, "hips");
}

TEST(SkeletonMapping, RenamedFamiliesMapLikeThePresetOnTheOriginal) {
  const mocap::Clip original = mocap::load_clip(kBoxing);
  const SelectedPreset preset = select_preset(original);
  ASSERT_EQ(preset.preset.name, "cmu-motionbuilder");
  const std::vector<std::string> expected = joint_names(original, preset.match);
  const LandmarkTrack expected_track = extract_landmarks(original, preset);

  for (const test::Family& family : test::boxing_families()) {
    SCOPED_TRACE(family.name);
    const mocap::Clip clip = mocap::parse_bvh(test::edited_bvh(kBoxing, family.edit), family.name + ".bvh");
    const AutomaticMapping automatic = map_skeleton(clip);
    ASSERT_TRUE(automatic.found) << automatic.failure;
    const std::vector<std::string> found = joint_names(clip, automatic.selected.match);
    for (int i = 0; i < kLandmarkCount; ++i) {
      const auto k = static_cast<std::size_t>(i);
      EXPECT_EQ(found[k], expected[k].empty() ? "" : renamed(family.edit.rename, expected[k]))
          << to_string(static_cast<Landmark>(i)) << ": " << automatic.selected.evidence[k];
      EXPECT_EQ(automatic.selected.evidence[k].empty(), found[k].empty());
    }
    // The landmarks themselves: equal to 1e-12 m (exactly, but for the twist joint that splits a bone in
    // two parts: sums of two offsets round differently in the last bit).
    const LandmarkTrack track = extract_landmarks(clip, automatic.selected);
    ASSERT_EQ(track.frame_count(), expected_track.frame_count());
    double worst = 0.0;
    for (int f = 0; f < track.frame_count(); ++f) {
      const auto& a = track.frames[static_cast<std::size_t>(f)];
      const auto& e = expected_track.frames[static_cast<std::size_t>(f)];
      for (int i = 0; i < kLandmarkCount; ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (e.position[k].allFinite())
          worst = std::max(worst, (a.position[k] - e.position[k]).cwiseAbs().maxCoeff());
      }
      worst = std::max(worst, (a.pelvis_rotation - e.pelvis_rotation).cwiseAbs().maxCoeff());
      worst = std::max(worst, (a.head_rotation - e.head_rotation).cwiseAbs().maxCoeff());
    }
    EXPECT_LE(worst, 1e-12);
    // Families no preset knows are mapped automatically by default; the others by their preset, which
    // picks the same joints.
    const std::string chosen = select_preset(clip).preset.name;
    if (family.name == "mixamo" || family.name == "asf") {
      EXPECT_NE(chosen, "automatic");
    } else {
      EXPECT_EQ(chosen, "automatic");
    }
    EXPECT_EQ(select_preset(clip, "automatic").preset.name, "automatic");
  }
}

TEST(SkeletonMapping, SharedClipsMapLikeTheirPresets) {
  std::vector<std::string> files = {"bvh/assimp__Boxing_Toes.bvh",       "bvh/assimp__cmu_01_03.bvh",
                                    "bvh/bvh11__cmu_131_01.bvh",         "bvh/bvh11__cmu_131_03.bvh",
                                    "bvh/bvh11__cmu_scaled_131_01.bvh",  "bvh/bvhio__example_blanklines.bvh",
                                    "bvh/makehuman__benchmark_pose.bvh", "bvh/makehuman__walk1.bvh"};
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    MIMIC_REQUIRE_SHARED(path, "mocap/" + file);
    const mocap::Clip clip = mocap::load_clip(path);
    const SelectedPreset preset = select_preset(clip);
    ASSERT_NE(preset.preset.name, "automatic");
    const AutomaticMapping automatic = map_skeleton(clip);
    ASSERT_TRUE(automatic.found) << automatic.failure;
    const std::vector<std::string> expected = joint_names(clip, preset.match);
    const std::vector<std::string> found = joint_names(clip, automatic.selected.match);
    for (int i = 0; i < kLandmarkCount; ++i) {
      const auto k = static_cast<std::size_t>(i);
      EXPECT_EQ(found[k], expected[k]) << preset.preset.name << " " << to_string(static_cast<Landmark>(i))
                                       << ": " << automatic.selected.evidence[k];
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Skeletons written joint by joint (BVH text, y up, centimetres, facing +z): every joint has three
// rotation channels, the root six, two frames of zeros.
// ---------------------------------------------------------------------------------------------------

struct Node {
  std::string name;  // "" for an End Site
  int parent;
  double x, y, z;
};

std::string bvh_text(const std::vector<Node>& nodes) {
  std::string out = "HIERARCHY\n";
  int channels = 0;
  std::function<void(int, int)> write = [&](int i, int depth) {
    const Node& n = nodes[static_cast<std::size_t>(i)];
    const std::string tab(static_cast<std::size_t>(depth), ' ');
    out += tab + (n.name.empty() ? "End Site" : (n.parent < 0 ? "ROOT " : "JOINT ") + n.name) + "\n" + tab +
           "{\n";
    out +=
        tab + " OFFSET " + std::to_string(n.x) + " " + std::to_string(n.y) + " " + std::to_string(n.z) + "\n";
    if (!n.name.empty()) {
      out += tab + (n.parent < 0 ? " CHANNELS 6 Xposition Yposition Zposition" : " CHANNELS 3") +
             " Zrotation Xrotation Yrotation\n";
      channels += n.parent < 0 ? 6 : 3;
    }
    for (std::size_t c = 0; c < nodes.size(); ++c)
      if (nodes[c].parent == i) write(static_cast<int>(c), depth + 1);
    out += tab + "}\n";
  };
  write(0, 0);
  out += "MOTION\nFrames: 2\nFrame Time: 0.01\n";
  for (int f = 0; f < 2; ++f) {
    std::string row;
    for (int c = 0; c < channels; ++c) row += (c ? " 0" : "0");
    out += row + "\n";
  }
  return out;
}

// A humanoid whose joint names say nothing (J00...): sides from the pose (toes point forward).
std::vector<Node> plain_humanoid(bool with_right_arm = true) {
  std::vector<Node> n = {{"J00", -1, 0, 100, 0}, {"J01", 0, 0, 10, 0}, {"J02", 1, 0, 20, 0},
                         {"J03", 2, 0, 15, 0},   {"J04", 3, 0, 10, 0}, {"", 4, 0, 15, 0}};
  auto limb = [&](const std::vector<Node>& chain) {
    const int first = static_cast<int>(n.size());
    for (std::size_t k = 0; k < chain.size(); ++k) {
      Node node = chain[k];
      if (k > 0) node.parent = first + static_cast<int>(k) - 1;
      n.push_back(node);
    }
  };
  for (double s : {1.0, -1.0}) {
    const std::string p = s > 0 ? "A" : "B";  // no side in the names
    if (s > 0 || with_right_arm)
      limb({{p + "10", 2, 5 * s, 10, 0},
            {p + "11", 0, 12 * s, 0, 0},
            {p + "12", 0, 28 * s, 0, 0},
            {p + "13", 0, 25 * s, 0, 0},
            {"", 0, 8 * s, 0, 0}});
    limb({{p + "20", 0, 10 * s, -5, 0},
          {p + "21", 0, 0, -45, 0},
          {p + "22", 0, 0, -42, 0},
          {p + "23", 0, 0, -6, 12},
          {"", 0, 0, 0, 5}});
  }
  return n;
}

std::string map_failure(const std::vector<Node>& nodes, const mocap::LoadOptions& options = {}) {
  const mocap::Clip clip = mocap::parse_bvh(bvh_text(nodes), "made.bvh", options);
  const AutomaticMapping automatic = map_skeleton(clip);
  EXPECT_FALSE(automatic.found);
  EXPECT_EQ(automatic.failure.find('\n'), std::string::npos) << automatic.failure;
  // select_preset refuses it with the same reason, as an InputError.
  try {
    select_preset(clip);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(automatic.failure), std::string::npos) << e.what();
  }
  return automatic.failure;
}

TEST(SkeletonMapping, NamelessHumanoidIsMappedFromTopologyAndPose) {
  const mocap::Clip clip = mocap::parse_bvh(bvh_text(plain_humanoid()), "plain.bvh");
  const AutomaticMapping automatic = map_skeleton(clip);
  ASSERT_TRUE(automatic.found) << automatic.failure;
  const std::vector<std::string> found = joint_names(clip, automatic.selected.match);
  const std::map<Landmark, std::string> expected = {
      {Landmark::kPelvis, "J00"},     {Landmark::kChest, "J02"},        {Landmark::kNeck, "J03"},
      {Landmark::kHead, "J04"},       {Landmark::kLeftShoulder, "A11"}, {Landmark::kLeftElbow, "A12"},
      {Landmark::kLeftWrist, "A13"},  {Landmark::kLeftHand, "A13_End"}, {Landmark::kRightShoulder, "B11"},
      {Landmark::kRightElbow, "B12"}, {Landmark::kRightWrist, "B13"},   {Landmark::kLeftHip, "A20"},
      {Landmark::kLeftKnee, "A21"},   {Landmark::kLeftAnkle, "A22"},    {Landmark::kLeftToe, "A23"},
      {Landmark::kRightHip, "B20"},   {Landmark::kRightKnee, "B21"},    {Landmark::kRightAnkle, "B22"},
      {Landmark::kRightToe, "B23"}};
  for (const auto& [l, name] : expected)
    EXPECT_EQ(found[static_cast<std::size_t>(index(l))], name) << to_string(l);
  bool pose_decided = false;
  for (const auto& note : automatic.selected.notes)
    pose_decided |= note.find("the pose at frame 0") != std::string::npos;
  EXPECT_TRUE(pose_decided);
}

TEST(SkeletonMapping, NonHumanoidTreesAreRefusedNamingWhatIsMissing) {
  // A chain.
  const std::string chain = map_failure({{"J0", -1, 0, 100, 0},
                                         {"J1", 0, 0, 30, 0},
                                         {"J2", 1, 0, 30, 0},
                                         {"J3", 2, 0, 30, 0},
                                         {"", 3, 0, 10, 0}});
  EXPECT_NE(chain.find("found 1 limb ends"), std::string::npos) << chain;
  EXPECT_NE(chain.find("missing"), std::string::npos) << chain;

  // A humanoid without its right arm.
  const std::string one_arm = map_failure(plain_humanoid(false));
  EXPECT_NE(one_arm.find("missing: one arm"), std::string::npos) << one_arm;

  // A quadruped: hind legs at the pelvis, a spine forward to the front legs and the neck, a tail.
  std::vector<Node> q = {{"P", -1, 0, 60, 0}};
  auto add = [&](std::vector<Node> chain, int parent) {
    for (std::size_t k = 0; k < chain.size(); ++k) {
      chain[k].parent = k == 0 ? parent : static_cast<int>(q.size()) - 1;
      q.push_back(chain[k]);
    }
  };
  add({{"T1", 0, 0, 0, -15}, {"T2", 0, 0, 0, -15}, {"", 0, 0, 0, -15}}, 0);
  add({{"S", 0, 0, 0, 20}, {"C", 0, 0, 0, 40}}, 0);
  const int c = static_cast<int>(q.size()) - 1;
  add({{"N", 0, 0, 10, 10}, {"H", 0, 0, 10, 10}, {"", 0, 0, 0, 15}}, c);
  for (double s : {1.0, -1.0}) {
    add({{s > 0 ? "HA" : "HB", 0, 8 * s, 0, 0},
         {s > 0 ? "KA" : "KB", 0, 0, -30, 0},
         {s > 0 ? "FA" : "FB", 0, 0, -28, 0},
         {"", 0, 0, 0, 5}},
        0);
    add({{s > 0 ? "SA" : "SB", 0, 8 * s, 0, 0},
         {s > 0 ? "EA" : "EB", 0, 0, -30, 0},
         {s > 0 ? "WA" : "WB", 0, 0, -28, 0},
         {"", 0, 0, 0, 5}},
        c);
  }
  mocap::LoadOptions y_up;
  y_up.up = mocap::Axis{1, 1};
  const std::string quadruped = map_failure(q, y_up);
  EXPECT_NE(quadruped.find("not an upright humanoid"), std::string::npos) << quadruped;
}

}  // namespace
}  // namespace mimic::retarget
