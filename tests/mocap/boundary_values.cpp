// The readers refuse non-finite and absurd values at the boundary, naming the file and the place (issue
// 17): BVH offsets, channel values and Frame Time; C3D point scales. A UTF-8 byte-order mark is no content;
// names with control bytes print on one line; a deep hierarchy neither recurses nor prints unbounded text.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "mimic/mocap/describe.hpp"
#include "mimic/mocap/load.hpp"
#include "mocap/c3d_builder.hpp"
#include "mocap/test_helpers.hpp"

namespace mimic::mocap {
namespace {

using test::input_error_of;

// A two-joint BVH with one frame; `offset`, `value` and `frame_time` are spliced in as text.
std::string tiny_bvh(const std::string& offset = "0 10 0", const std::string& value = "5",
                     const std::string& frame_time = "0.01") {
  return "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Xposition Yposition Zposition\n"
         "  JOINT Head\n  {\n    OFFSET " +
         offset +
         "\n    CHANNELS 1 Zrotation\n    End Site\n    {\n      OFFSET 0 5 0\n    }\n  }\n}\n"
         "MOTION\nFrames: 1\nFrame Time: " +
         frame_time + "\n0 90 0 " + value + "\n";
}

TEST(BvhBoundary, NonFiniteAndAbsurdOffsetsAreRefusedWithTheLine) {
  for (const std::string bad : {"nan", "inf", "-inf", "1e308", "1e400", "2e6"}) {
    const std::string message = input_error_of([&] { parse_bvh(tiny_bvh("0 " + bad + " 0"), "t.bvh"); });
    EXPECT_EQ(message.rfind("t.bvh:line 8: ", 0), 0u) << bad << ": " << message;
    EXPECT_NE(message.find("OFFSET"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(BvhBoundary, NonFiniteAndAbsurdChannelValuesAreRefusedWithTheFrame) {
  for (const std::string bad : {"-1e308", "1.5e6"}) {
    const std::string message = input_error_of([&] { parse_bvh(tiny_bvh("0 10 0", bad), "t.bvh"); });
    EXPECT_EQ(
        message.rfind("t.bvh:line 19: expected a number within +-1e+06 (channel value 4 of 4 in frame 1)", 0),
        0u)
        << bad << ": " << message;
  }
  // Not a number at all (as before): NaN, infinities, overflow.
  for (const std::string bad : {"nan", "NaN", "inf", "1e400"}) {
    const std::string message = input_error_of([&] { parse_bvh(tiny_bvh("0 10 0", bad), "t.bvh"); });
    EXPECT_EQ(message,
              "t.bvh:line 19: expected a number (channel value 4 of 4 in frame 1), found '" + bad + "'");
  }
  // The bound leaves every real clip alone: 1e6 degrees and 1e6 file units are accepted.
  EXPECT_NO_THROW(parse_bvh(tiny_bvh("0 10 0", "-1e6"), "t.bvh"));
}

TEST(BvhBoundary, FrameTimeOutsideItsRangeIsRefused) {
  for (const std::string bad : {"1e300", "1e-300", "0", "-0.01", "11", "5e-5"}) {
    const std::string message = input_error_of([&] { parse_bvh(tiny_bvh("0 10 0", "5", bad), "t.bvh"); });
    EXPECT_EQ(message, "t.bvh:line 18: Frame Time '" + bad + "' is outside [1e-04, 10] s (10 kHz .. 0.1 Hz)")
        << bad;
  }
  for (const std::string good : {"0.0001", "10", "0.0083333"})
    EXPECT_NO_THROW(parse_bvh(tiny_bvh("0 10 0", "5", good), "t.bvh")) << good;
}

TEST(BvhBoundary, ByteOrderMarkIsAccepted) {
  const Clip plain = parse_bvh(tiny_bvh(), "t.bvh");
  const Clip marked = parse_bvh("\xEF\xBB\xBF" + tiny_bvh(), "t.bvh");
  EXPECT_EQ(marked.skeleton().joints.size(), plain.skeleton().joints.size());
  EXPECT_EQ(marked.skeleton().values, plain.skeleton().values);
  // Only at the start: elsewhere it is what it is, an unexpected token.
  EXPECT_NE(input_error_of([&] { parse_bvh("\n\xEF\xBB\xBF" + tiny_bvh(), "t.bvh"); }).find("HIERARCHY"),
            std::string::npos);
}

TEST(BvhBoundary, ControlBytesInJointNamesPrintOnOneLine) {
  std::string text = tiny_bvh();
  text.replace(text.find("Head"), 4, "He\x1b[2Jad\x01");
  const Clip clip = parse_bvh(text, "t.bvh");
  EXPECT_EQ(clip.skeleton().joints[1].name, "He\\x1b[2Jad\\x01");
  std::ostringstream out;
  describe_clip(clip, out);
  for (const char c : out.str()) EXPECT_TRUE(c == '\n' || static_cast<unsigned char>(c) >= 0x20) << int(c);
}

// 100,000 nested joints: the reader's descent is iterative (no stack overflow) and `mimic info` prints one
// short line per joint (the indentation stops growing at 32 levels), not 10 GB of spaces.
TEST(BvhBoundary, DeepHierarchyIsReadAndDescribedInBoundedSpace) {
  constexpr int kDepth = 100'000;
  std::string text = "HIERARCHY\nROOT J0\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Yposition Zposition\n";
  for (int j = 1; j < kDepth; ++j) text += "JOINT J" + std::to_string(j) + "\n{\nOFFSET 0 0.001 0\n";
  text += "End Site\n{\nOFFSET 0 0.001 0\n}\n";
  for (int j = 0; j < kDepth; ++j) text += "}\n";
  text += "MOTION\nFrames: 1\nFrame Time: 0.01\n0 0 0\n";
  const Clip clip = parse_bvh(text, "deep.bvh");
  ASSERT_EQ(clip.skeleton().joints.size(), static_cast<std::size_t>(kDepth + 1));
  std::ostringstream out;
  describe_clip(clip, out);
  std::istringstream lines(out.str());
  std::size_t longest = 0, count = 0;
  for (std::string line; std::getline(lines, line); ++count) longest = std::max(longest, line.size());
  EXPECT_LE(longest, 120u);
  EXPECT_LT(count, static_cast<std::size_t>(kDepth + 20));
  EXPECT_NE(out.str().find("(depth 99999) J99999"), std::string::npos);
}

test::C3dSpec two_markers() {
  test::C3dSpec spec;
  spec.labels = {"LFHD", "RFHD"};
  spec.float_storage = false;
  spec.positions = {{{0, 0, 1600}, {0, 100, 1600}}, {{10, 0, 1600}, {10, 100, 1600}}};
  return spec;
}

TEST(C3dBoundary, IntegerPointScaleOutsideItsRangeIsRefused) {
  for (const double bad : {0.0, 1e-9, 5e3, 1e30}) {
    test::C3dSpec spec = two_markers();
    spec.scale = bad;
    const std::vector<std::byte> bytes = test::build_c3d(spec);
    const std::string message = input_error_of([&] { parse_c3d(bytes, "s.c3d"); });
    EXPECT_EQ(message.rfind("s.c3d:byte 12: ", 0), 0u) << bad << ": " << message;
    EXPECT_NE(message.find("POINT:SCALE"), std::string::npos) << message;
  }
  for (const double bad : {std::nan(""), HUGE_VAL}) {
    test::C3dSpec spec = two_markers();
    spec.scale = bad;
    const std::vector<std::byte> bytes = test::build_c3d(spec);
    const std::string message = input_error_of([&] { parse_c3d(bytes, "s.c3d"); });
    EXPECT_NE(message.find("POINT:SCALE"), std::string::npos) << bad << ": " << message;
  }
}

TEST(C3dBoundary, ControlBytesInLabelsAreEscaped) {
  test::C3dSpec spec = two_markers();
  spec.labels = {"LF\nHD", "RF\x07HD"};
  const std::vector<std::byte> bytes = test::build_c3d(spec);
  const Clip clip = parse_c3d(bytes, "s.c3d");
  EXPECT_EQ(clip.markers().labels[0], "LF\\x0aHD");
  EXPECT_EQ(clip.markers().labels[1], "RF\\x07HD");
  std::ostringstream out;
  describe_clip(clip, out);
  EXPECT_NE(out.str().find("  LF\\x0aHD  valid"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace mimic::mocap
