// BVH dialects and errors, on small synthetic files written in the test.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "mimic/mocap/load.hpp"
#include "mocap/test_helpers.hpp"

namespace mimic::mocap {
namespace {

using test::input_error_of;
using test::LogCapture;

constexpr double kDeg = std::numbers::pi / 180.0;

// Identity conversion: metres, z up, no re-orientation. The synthetic files below are written that way,
// so the values can be checked against hand-computed ones.
LoadOptions identity_options() {
  LoadOptions o;
  o.unit = LengthUnit::kMetre;
  o.up = Axis{2, 1};
  o.face_forward = false;
  return o;
}

Eigen::Matrix3d rot(int axis, double degrees) {
  return Eigen::AngleAxisd(degrees * kDeg, Eigen::Vector3d::Unit(axis)).toRotationMatrix();
}

constexpr const char* kTwoJoints = R"(HIERARCHY
ROOT Root
{
  OFFSET 0 0 1
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Child
  {
    OFFSET 0 1 0
    CHANNELS 3 Xrotation Yrotation Zrotation
    End Site
    {
      OFFSET 0 0 0.5
    }
  }
}
MOTION
Frames: 2
Frame Time: 0.5
0 0 0 0 0 0 0 0 0
1 2 3 30 40 50 10 20 60
)";

TEST(BvhReader, PerJointChannelOrderAndForwardKinematics) {
  const Clip clip = parse_bvh(kTwoJoints, "two.bvh", identity_options());
  const SkeletonClip& s = clip.skeleton();
  ASSERT_EQ(s.joints.size(), 3u);
  EXPECT_EQ(s.frame_count(), 2);
  EXPECT_EQ(s.channel_count(), 9);
  EXPECT_DOUBLE_EQ(s.frame_time, 0.5);
  EXPECT_EQ(s.joints[0].channels[3], ChannelType::kZrotation);
  EXPECT_EQ(s.joints[1].channels[0], ChannelType::kXrotation);
  EXPECT_EQ(s.joints[1].first_channel, 6);
  EXPECT_TRUE(s.joints[2].end_site);
  EXPECT_EQ(s.joints[2].name, "Child_End");
  EXPECT_EQ(s.joints[2].parent, 1);
  EXPECT_TRUE(s.joints[2].channels.empty());

  // Frame 1 by hand: root at offset + translation, rotated Rz Rx Ry (listed order); child X Y Z.
  const Eigen::Matrix3d r_root = rot(2, 30) * rot(0, 40) * rot(1, 50);
  const Eigen::Matrix3d r_child = rot(0, 10) * rot(1, 20) * rot(2, 60);
  const Eigen::Vector3d root = Eigen::Vector3d(0, 0, 1) + Eigen::Vector3d(1, 2, 3);
  const Eigen::Vector3d child = root + r_root * Eigen::Vector3d(0, 1, 0);
  const Eigen::Vector3d tip = child + r_root * r_child * Eigen::Vector3d(0, 0, 0.5);

  const auto g = s.global_transforms(1);
  // The reader composes the same rotations as this hand computation (measured 0 difference); 1e-14 relative
  // leaves ~50 ulp for another association of the products. A wrong order or axis is O(1).
  EXPECT_TRUE(g[0].translation().isApprox(root, 1e-14));
  EXPECT_TRUE(g[0].linear().isApprox(r_root, 1e-14));
  EXPECT_TRUE(g[1].translation().isApprox(child, 1e-14));
  EXPECT_TRUE(g[2].translation().isApprox(tip, 1e-14));

  // The preallocated variant gives the same (the same arithmetic: measured 0, 1e-14 as above).
  std::vector<Eigen::Isometry3d> out;
  s.global_transforms(1, out);
  for (std::size_t j = 0; j < out.size(); ++j) EXPECT_TRUE(out[j].isApprox(g[j], 1e-14));
  // Rest pose = frame 0 here (all zeros).
  const auto rest = s.rest_global_transforms();
  const auto f0 = s.global_transforms(0);
  for (std::size_t j = 0; j < rest.size(); ++j) EXPECT_TRUE(rest[j].isApprox(f0[j], 1e-14));
}

TEST(BvhReader, SixChannelsOnAChildJointAddToTheOffset) {
  const std::string text = R"(HIERARCHY
ROOT Root
{
  OFFSET 0 0 0
  CHANNELS 3 Zrotation Yrotation Xrotation
  JOINT Slider
  {
    OFFSET 1 0 0
    CHANNELS 6 Xposition Yposition Zposition Xrotation Yrotation Zrotation
    End Site
    {
      OFFSET 1 0 0
    }
  }
}
MOTION
Frames: 1
Frame Time: 0.1
90 0 0 0.5 0 0 0 0 0
)";
  const Clip clip = parse_bvh(text, "six.bvh", identity_options());
  const auto g = clip.skeleton().global_transforms(0);
  // Root turned 90 deg about z: the slider's (1 + 0.5, 0, 0) lands on +y. cos(pi / 2) rounds to 6e-17,
  // not 0: measured 6.1e-17 relative; 1e-15 relative is 16x that.
  EXPECT_TRUE(g[1].translation().isApprox(Eigen::Vector3d(0, 1.5, 0), 1e-15));
  EXPECT_TRUE(g[2].translation().isApprox(Eigen::Vector3d(0, 2.5, 0), 1e-15));
}

TEST(BvhReader, ZeroChannelJointIsFixed) {
  const std::string text =
      "HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nCHANNELS 1 Zrotation\nJOINT Fixed\n{\nOFFSET 1 0 0\nCHANNELS 0\n"
      "End Site\n{\nOFFSET 1 0 0\n}\n}\n}\nMOTION\nFrames: 1\nFrame Time: 1\n90\n";
  const Clip clip = parse_bvh(text, "zero.bvh", identity_options());
  EXPECT_EQ(clip.skeleton().channel_count(), 1);
  // cos(pi / 2) ~ 6e-17 where 0 is meant: measured 6.1e-17 relative.
  EXPECT_TRUE(
      clip.skeleton().global_transforms(0)[2].translation().isApprox(Eigen::Vector3d(0, 2, 0), 1e-15));
}

// Several End Sites under one joint (fingertips of a hand without finger joints) keep distinct names, so
// that a preset or an FK lookup by name can tell them apart.
TEST(BvhReader, SeveralEndSitesUnderOneJointGetDistinctNames) {
  const std::string text =
      "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nCHANNELS 0\nJOINT Hand\n{\nOFFSET 1 0 0\nCHANNELS 0\n"
      "End Site\n{\nOFFSET 0 1 0\n}\nEnd Site\n{\nOFFSET 0 2 0\n}\nEnd Site\n{\nOFFSET 0 3 0\n}\n}\n"
      "End Site\n{\nOFFSET 0 0 1\n}\n}\nMOTION\nFrames: 1\nFrame Time: 1\n\n";
  const Clip clip = parse_bvh(text, "sites.bvh", identity_options());
  const SkeletonClip& s = clip.skeleton();
  ASSERT_EQ(s.joints.size(), 6u);
  const auto g = s.rest_global_transforms();
  for (const auto& [name, y] :
       {std::pair{"Hand_End", 1.0}, std::pair{"Hand_End2", 2.0}, std::pair{"Hand_End3", 3.0}}) {
    SCOPED_TRACE(name);
    const int j = s.joint_index(name);
    ASSERT_GE(j, 0);
    EXPECT_TRUE(s.joints[static_cast<std::size_t>(j)].end_site);
    EXPECT_EQ(s.joints[static_cast<std::size_t>(j)].parent, s.joint_index("Hand"));
    // Sums of small integer offsets, no rotation: exact (measured 0); 1e-15 relative is a few ulp.
    EXPECT_TRUE(g[static_cast<std::size_t>(j)].translation().isApprox(Eigen::Vector3d(1, y, 0), 1e-15));
  }
  // The count is per joint: the root's single End Site is plain <parent>_End.
  EXPECT_EQ(s.joints[5].name, "Hips_End");
}

// The same file in every whitespace / line-ending dialect decodes to the same numbers.
TEST(BvhReader, WhitespaceAndLineEndingDialects) {
  const Clip reference = parse_bvh(kTwoJoints, "lf.bvh", identity_options());
  auto replace_all = [](std::string s, const std::string& from, const std::string& to) {
    for (std::size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
      s.replace(pos, from.size(), to);
    return s;
  };
  const std::string lf = kTwoJoints;
  std::vector<std::pair<std::string, std::string>> variants = {
      {"crlf", replace_all(lf, "\n", "\r\n")},
      {"cr", replace_all(lf, "\n", "\r")},
      {"tabs", replace_all(replace_all(lf, "  ", "\t"), " ", "\t")},
      {"blank lines", replace_all(replace_all(lf, "{\n", "{\n\n  \n"), "MOTION\n", "MOTION\n\n\t\n")},
      {"trailing spaces", replace_all(lf, "\n", "   \n")},
      {"many spaces", replace_all(lf, " ", "    ")},
      {"no final newline", lf.substr(0, lf.size() - 1)},
      {"glued braces", replace_all(replace_all(lf, "Root\n{", "Root {"), "\n}\n}\n", "}}\n")},
      {"plus signs and exponents", replace_all(lf, "1 2 3 30", "+1 2e0 0.3E1 +30.0")},
      {"named end site", replace_all(lf, "End Site", "End Site Child_tip")},
      {"lower-case keywords", replace_all(replace_all(lf, "OFFSET", "offset"), "Xrotation", "XROTATION")},
  };
  // Mixed endings as in CMU 131_01: some CRLF, some LF.
  std::string mixed;
  int i = 0;
  for (char c : lf) {
    if (c == '\n' && (i++ % 2 == 0)) mixed += '\r';
    mixed += c;
  }
  variants.emplace_back("mixed", mixed);

  for (const auto& [what, text] : variants) {
    SCOPED_TRACE(what);
    const Clip clip = parse_bvh(text, what, identity_options());
    ASSERT_EQ(clip.skeleton().joints.size(), reference.skeleton().joints.size());
    EXPECT_TRUE(clip.skeleton().values.isApprox(reference.skeleton().values, 1e-15));
    // The same digits parse to the same doubles whatever the line ending: measured identical.
    for (std::size_t j = 0; j < clip.skeleton().joints.size(); ++j)
      EXPECT_EQ(clip.skeleton().joints[j].offset, reference.skeleton().joints[j].offset);
  }
}

TEST(BvhReader, FrameTimeWithoutLeadingZero) {
  std::string text = kTwoJoints;
  text.replace(text.find("Frame Time: 0.5"), 15, "Frame Time: .0083333");
  const Clip clip = parse_bvh(text, "cmu.bvh", identity_options());
  EXPECT_DOUBLE_EQ(clip.skeleton().frame_time, 0.0083333);
  // 1 / 0.0083333 = 120.00048 Hz (the file's 5 digits); the rate is that division, to an ulp.
  EXPECT_NEAR(clip.rate(), 120.0, 1e-3);
  EXPECT_NEAR(clip.rate(), 1.0 / 0.0083333, 1e-12);
}

TEST(BvhReader, RowCountDifferentFromFramesWarnsAndUsesRows) {
  for (const char* declared : {"Frames: 1", "Frames: 7"}) {
    std::string text = kTwoJoints;
    text.replace(text.find("Frames: 2"), 9, declared);
    LogCapture log;
    const Clip clip = parse_bvh(text, "rows.bvh", identity_options());
    EXPECT_EQ(clip.frame_count(), 2) << declared;
    EXPECT_NE(log.text().find("holds 2 data rows"), std::string::npos) << log.text();
  }
}

TEST(BvhReader, UnitsGuessedFromSkeletonHeight) {
  const std::pair<double, LengthUnit> cases[] = {
      {1.0, LengthUnit::kMetre},         {10.0, LengthUnit::kDecimetre},    {100.0, LengthUnit::kCentimetre},
      {1000.0, LengthUnit::kMillimetre}, {1.0 / 0.0254, LengthUnit::kInch}, {0.45 / 0.0254, LengthUnit::kCmu},
  };
  double metre_height = 0.0;  // frame 0's head-to-feet height in the metre file (the first case)
  for (const auto& [per_metre, unit] : cases) {
    test::SkeletonSpec spec;
    spec.unit_per_metre = per_metre;
    const Clip clip = parse_bvh(test::human_bvh(spec), "h.bvh");
    EXPECT_EQ(clip.source_unit, unit) << per_metre;
    EXPECT_EQ(clip.unit_provenance, Provenance::kDetected);
    // The detected height in metres, from offsets printed with 10 digits: measured 4.4e-11 at worst (inch).
    EXPECT_NEAR(clip.source_height * metres_per_unit(clip.source_unit), 1.7, 1e-9);
    // Converted: the head end is 1.7 m above the feet whatever the file unit. In the rest pose exactly: the
    // offsets 0.3 + 0.3 + 0.2 above the hips and 0.9 below are printed with 10 digits (measured 4.4e-11 at
    // worst). A wrong unit factor is off by 1.77x or more (CMU units against decimetres).
    const SkeletonClip& s = clip.skeleton();
    const int head = s.joint_index("Head_End"), foot = s.joint_index("LeftFoot");
    const auto rest = s.rest_global_transforms();
    EXPECT_NEAR(rest[head].translation().z() - rest[foot].translation().z(), 1.7, 1e-9);
    // Frame 0 turns every joint by up to 5 degrees, which lowers the head end by 22.2 mm (measured 1.67784
    // m); the same pose in every unit, to the 10 printed digits (measured 6e-11 apart).
    const auto g = s.global_transforms(0);
    const double height = g[head].translation().z() - g[foot].translation().z();
    if (unit == LengthUnit::kMetre) metre_height = height;
    EXPECT_NEAR(height, metre_height, 1e-9);
    EXPECT_NEAR(height, 1.7, 0.025);
  }
}

TEST(BvhReader, UnitOverrideWins) {
  test::SkeletonSpec spec;  // cm
  LoadOptions o;
  o.unit = LengthUnit::kMillimetre;
  const Clip clip = parse_bvh(test::human_bvh(spec), "h.bvh", o);
  EXPECT_EQ(clip.source_unit, LengthUnit::kMillimetre);
  EXPECT_EQ(clip.unit_provenance, Provenance::kOverride);
  EXPECT_DOUBLE_EQ(clip.conversion.scale, 0.001);
}

// Every up / forward combination of the source comes out z up, x forward, left = +y.
TEST(BvhReader, UpAndForwardDetectedAndConverted) {
  for (int up = 0; up < 3; ++up) {
    for (int forward = 0; forward < 3; ++forward) {
      if (forward == up) continue;
      test::SkeletonSpec spec;
      spec.up = up;
      spec.forward = forward;
      const Clip clip = parse_bvh(test::human_bvh(spec), "dir.bvh");
      SCOPED_TRACE("up " + std::to_string(up) + " forward " + std::to_string(forward));
      EXPECT_EQ(clip.source_up, (Axis{up, 1}));
      EXPECT_EQ(clip.up_provenance, Provenance::kDetected);
      EXPECT_TRUE(clip.forward_known);
      EXPECT_EQ(clip.source_forward, (Axis{forward, 1}));
      // A signed permutation of the axes: its determinant is exactly +-1 (measured 0 off); a mirror is -1.
      EXPECT_NEAR(clip.conversion.rotation.determinant(), 1.0, 1e-12);
      const SkeletonClip& s = clip.skeleton();
      const auto g = s.rest_global_transforms();
      const Eigen::Vector3d head = g[s.joint_index("Head_End")].translation();
      const Eigen::Vector3d hips = g[s.joint_index("Hips")].translation();
      const Eigen::Vector3d left = g[s.joint_index("LeftArm_End")].translation();
      const Eigen::Vector3d toe = g[s.joint_index("LeftFoot_End")].translation();
      const Eigen::Vector3d foot = g[s.joint_index("LeftFoot")].translation();
      // The rest pose's bones lie along the axes and the conversion is a signed permutation and the unit
      // factor: directions and the step are exact (measured 0 off); 1e-12 allows the rounding of the factor.
      EXPECT_NEAR((head - hips).normalized().z(), 1.0, 1e-12);
      EXPECT_GT(left.y() - hips.y(), 0.5);
      EXPECT_NEAR((toe - foot).normalized().x(), 1.0, 1e-12);  // feet point forward
      // Frame 1 walks forward: the root moves along +x.
      const auto g1 = s.global_transforms(1), g0 = s.global_transforms(0);
      EXPECT_NEAR(g1[0].translation().x() - g0[0].translation().x(), 0.1, 1e-12);
      // Frame 0's channel angles (up to 5 degrees each, read in another order for each axis convention)
      // turn the body: measured |heading| up to 0.257 rad. A wrong forward axis is off by pi / 2 or more.
      EXPECT_NEAR(std::abs(clip.initial_heading), 0.0, 0.5);
    }
  }
}

TEST(BvhReader, UpOverrideAndNoForward) {
  test::SkeletonSpec spec;  // y up, z forward
  LoadOptions o;
  o.up = Axis{1, 1};
  o.face_forward = false;
  const Clip clip = parse_bvh(test::human_bvh(spec), "h.bvh", o);
  EXPECT_EQ(clip.up_provenance, Provenance::kOverride);
  EXPECT_FALSE(clip.forward_known);
  // y up without forward alignment: the cyclic map (x, y, z) -> (y, z, x) is used.
  // A permutation and one multiplication by the unit factor: measured exact.
  EXPECT_TRUE(
      clip.conversion.to_mimic(Eigen::Vector3d(0, 1, 0)).isApprox(Eigen::Vector3d(0, 0, 0.01), 1e-15));
}

TEST(BvhReader, BoneLengthsSurviveConversion) {
  test::SkeletonSpec spec;
  spec.unit_per_metre = 0.45 / 0.0254;  // CMU units
  const Clip clip = parse_bvh(test::human_bvh(spec), "cmu.bvh");
  const SkeletonClip& s = clip.skeleton();
  for (int f = 0; f < s.frame_count(); ++f) {
    const auto g = s.global_transforms(f);
    for (std::size_t j = 1; j < g.size(); ++j) {
      const double length = (g[j].translation() - g[s.joints[j].parent].translation()).norm();
      // Rotations and a unit scale preserve lengths up to round-off of metre-scale norms (measured 2.2e-16).
      EXPECT_NEAR(length, s.joints[j].offset.norm(), 1e-14);
    }
  }
}

// ----- errors: the message names the file, the line and what was expected -----

struct ErrorCase {
  const char* what;
  std::string text;
  const char* place;     // "line N"
  const char* expected;  // a fragment of the message
};

TEST(BvhReader, MalformedInputNamesLineAndExpectation) {
  const std::string head =
      "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n";
  const std::string tail = "}\nMOTION\nFrames: 1\nFrame Time: 0.1\n1 2 3\n";
  const std::vector<ErrorCase> cases = {
      {"empty", "", "line 1", "expected 'HIERARCHY', found end of file"},
      {"not bvh", "hello world", "line 1", "expected 'HIERARCHY', found 'hello'"},
      {"no root", "HIERARCHY\nJOINT x\n", "line 2", "expected 'ROOT'"},
      {"no brace", "HIERARCHY\nROOT Hips\nOFFSET 0 0 0\n", "line 3", "expected '{' after the joint name"},
      {"no name", "HIERARCHY\nROOT\n{\n", "line 2", "expected a joint name"},
      {"bad offset", "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 abc 0\n", "line 4",
       "expected an OFFSET coordinate, found 'abc'"},
      {"short offset", "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0\n  CHANNELS 0\n}", "line 5",
       "expected an OFFSET coordinate, found 'CHANNELS'"},
      {"nan offset", "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 nan 0\n", "line 4",
       "expected an OFFSET coordinate"},
      {"channel count", "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 7 Xposition\n", "line 5",
       "expected a channel count 0..6, found '7'"},
      {"channel name", "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 1 Wrotation\n", "line 5",
       "expected a channel name"},
      {"two offsets", head + "  OFFSET 1 1 1\n" + tail, "line 6", "expected one OFFSET per joint"},
      {"unknown keyword", head + "  BONE x\n" + tail, "line 6",
       "expected OFFSET, CHANNELS, JOINT, End Site or '}', found 'BONE'"},
      {"end without site", head + "  End\n  {\n", "line 7", "expected 'Site' after 'End'"},
      {"channels in end site", head + "  End Site\n  {\n    CHANNELS 1 Xrotation\n", "line 8",
       "expected no CHANNELS in an End Site"},
      {"missing offset", "HIERARCHY\nROOT Hips\n{\n  CHANNELS 0\n}\n", "line 5",
       "expected OFFSET in joint 'Hips'"},
      {"unclosed", head + "  JOINT Spine\n  {\n    OFFSET 0 1 0\n", "line 9", "found end of file"},
      {"two roots", head + "}\nROOT Second\n{\n}\n", "line 7", "found a second ROOT"},
      {"no motion", head + "}\n", "line 7", "expected MOTION after the hierarchy, found end of file"},
      {"no frames", head + "}\nMOTION\nFrame Time: 0.1\n", "line 8", "expected 'Frames:', found 'Frame'"},
      {"bad frames", head + "}\nMOTION\nFrames: many\n", "line 8", "expected a frame count, found 'many'"},
      {"no frame time", head + "}\nMOTION\nFrames: 1\n1 2 3\n", "line 9", "expected 'Frame', found '1'"},
      {"negative frame time", head + "}\nMOTION\nFrames: 1\nFrame Time: -0.1\n1 2 3\n", "line 9",
       "Frame Time '-0.1' is outside [1e-04, 10] s"},
      {"no rows", head + "}\nMOTION\nFrames: 1\nFrame Time: 0.1\n", "line 10",
       "expected at least one frame of motion data"},
      {"short row", head + "}\nMOTION\nFrames: 2\nFrame Time: 0.1\n1 2 3\n1 2\n", "line 11",
       "expected 3 channel values in frame 2, found 2"},
      {"long row", head + "}\nMOTION\nFrames: 1\nFrame Time: 0.1\n1 2 3 4\n", "line 10",
       "expected 3 channel values in frame 1, found 4"},
      {"bad value", head + "}\nMOTION\nFrames: 1\nFrame Time: 0.1\n1 x 3\n", "line 10",
       "expected a number (channel value 2 of 3 in frame 1), found 'x'"},
      {"glued value", head + "}\nMOTION\nFrames: 1\nFrame Time: 0.1\n1 2.5.5 3\n", "line 10",
       "expected a separator after a number"},
      {"inf value", head + "}\nMOTION\nFrames: 1\nFrame Time: 0.1\n1 inf 3\n", "line 10",
       "expected a number"},
      // One sign only: "+-1" is not -1 (from_chars takes no '+', so the reader strips it itself).
      {"plus minus value", head + "}\nMOTION\nFrames: 1\nFrame Time: 0.1\n1 +-2 3\n", "line 10",
       "expected a number (channel value 2 of 3 in frame 1), found '+-2'"},
      {"plus minus offset", "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 +-1 0\n", "line 4",
       "expected an OFFSET coordinate, found '+-1'"},
      {"plus minus frame time", head + "}\nMOTION\nFrames: 1\nFrame Time: +-0.1\n1 2 3\n", "line 9",
       "expected a frame time in seconds, found '+-0.1'"},
      {"comma separated", head + "}\nMOTION\nFrames: 1\nFrame Time: 0.1\n1,2,3\n", "line 10",
       "expected a separator"},
      {"crlf line numbers", "HIERARCHY\r\nROOT Hips\r\n{\r\n  OFFSET 0 0 x\r\n", "line 4",
       "expected an OFFSET coordinate"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.what);
    const std::string message = input_error_of([&] { parse_bvh(c.text, "bad.bvh", identity_options()); });
    EXPECT_EQ(message.rfind(std::string("bad.bvh:") + c.place + ": ", 0), 0u) << message;
    EXPECT_NE(message.find(c.expected), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one-line message: " << message;
  }
}

TEST(BvhReader, MissingFileIsInputError) {
  const std::string message = input_error_of([] { load_clip("/nonexistent/dir/walk.bvh"); });
  EXPECT_NE(message.find("/nonexistent/dir/walk.bvh"), std::string::npos);
  EXPECT_NE(message.find("cannot open"), std::string::npos);
}

TEST(BvhReader, UnknownExtensionIsInputError) {
  const std::string message = input_error_of([] { load_clip("motion.fbx"); });
  EXPECT_NE(message.find("expected a motion capture file ending in .bvh or .c3d"), std::string::npos)
      << message;
}

TEST(LoadOptions, ParseCommandLineSpellings) {
  EXPECT_FALSE(parse_unit_option("auto").has_value());
  EXPECT_EQ(parse_unit_option("cm"), LengthUnit::kCentimetre);
  EXPECT_EQ(parse_unit_option("CMU"), LengthUnit::kCmu);
  EXPECT_EQ(parse_unit_option("inch"), LengthUnit::kInch);
  EXPECT_EQ(parse_unit_option("dm"), LengthUnit::kDecimetre);
  EXPECT_NE(input_error_of([] { parse_unit_option("furlong", "--units"); }).find("--units"),
            std::string::npos);
  EXPECT_FALSE(parse_up_option("auto").has_value());
  EXPECT_EQ(parse_up_option("y"), (Axis{1, 1}));
  EXPECT_EQ(parse_up_option("-Z"), (Axis{2, -1}));
  EXPECT_NE(input_error_of([] { parse_up_option("w", "--up"); }).find("expected auto, x, y or z"),
            std::string::npos);
}

}  // namespace
}  // namespace mimic::mocap
