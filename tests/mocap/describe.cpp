// describe_clip: what `mimic info CLIP` prints.
#include "mimic/mocap/describe.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "mimic/core/error.hpp"
#include "support/shared_data.hpp"

namespace mimic::mocap {
namespace {

std::string described(const std::filesystem::path& path) {
  std::ostringstream out;
  describe_clip(path, out);
  return out.str();
}

void expect_contains(const std::string& text, const std::string& fragment) {
  EXPECT_NE(text.find(fragment), std::string::npos) << "missing '" << fragment << "' in:\n" << text;
}

TEST(DescribeClip, SkeletonClip) {
  const std::string text = described(test::source_dir() / "data/mocap/boxing.bvh");
  expect_contains(text, "(BVH)");
  expect_contains(text, "skeleton: 31 joints + 7 end sites, 96 channels");
  // The file's channel names (not mimic's axes), the bone length in metres.
  expect_contains(text, "\n  Hips  [Xposition Yposition Zposition Zrotation Yrotation Xrotation]  0.000\n");
  // Indented by depth: Hips > LowerBack > Spine > Spine1 > LeftShoulder > LeftArm.
  expect_contains(text, "\n            LeftArm  [Zrotation Yrotation Xrotation]  0.150\n");
  expect_contains(text, "\n                      LFingers_End  0.030\n");
  expect_contains(text, "frames: 960\n");
  expect_contains(text, "rate: 120.000 Hz\n");
  expect_contains(text, "duration: 8.000 s\n");
  expect_contains(text, "units: cm (detected, height 171.000 cm), converted to metres");
  expect_contains(text, "up axis: +y (detected), converted to +z");
  expect_contains(text, "forward: +z (from left/right pairs at frame 0");
}

TEST(DescribeClip, MarkerClip) {
  const std::string text = described(test::source_dir() / "data/mocap/boxing.c3d");
  expect_contains(text, "(C3D)");
  expect_contains(text, "markers: 41 (first frame number 1)");
  expect_contains(text, "\n  LFHD  valid 100.0%\n");
  expect_contains(text, "frames: 960\n");
  expect_contains(text, "units: mm (declared by the file");
  expect_contains(text, "up axis: +z (detected)");
}

TEST(DescribeClip, SharedMarkerClipWithPrefixAndGaps) {
  MIMIC_REQUIRE_SHARED(path, "mocap/c3d/btkdata__vicon_shd01.c3d");
  const std::string text = described(path);
  expect_contains(text, "markers: 27 (first frame number 91)");
  expect_contains(text, "  RFHD (AbcdeFghijk:RFHD)  valid");
  expect_contains(text, "rate: 250.000 Hz");
  expect_contains(text, "duration: 0.948 s");
}

// `mimic info --units / --up`: the overrides reach the loader and the summary says they were given.
TEST(DescribeClip, UnitAndUpOverridesAreReported) {
  LoadOptions options;
  options.unit = parse_unit_option("mm", "--units");
  options.up = parse_up_option("-z", "--up");
  std::ostringstream out;
  describe_clip(test::source_dir() / "data/mocap/boxing.bvh", out, options);
  const std::string text = out.str();
  expect_contains(text, "units: mm (given by the user, height ");
  expect_contains(text, "up axis: -z (given by the user), converted to +z");
}

TEST(DescribeClip, BadFileIsInputError) {
  std::ostringstream out;
  EXPECT_THROW(describe_clip("/nonexistent/x.bvh", out), InputError);
}

}  // namespace
}  // namespace mimic::mocap
