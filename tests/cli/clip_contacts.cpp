// `mimic info CLIP --contacts` end to end: the shipped boxer's footwork and the shipped walk (the numbers
// are checked in tests/retarget/clip_contacts.cpp; here the command's lines), a walking shared clip, and the
// errors: both --landmarks and --contacts is a usage error, a clip without feet is bad input with one line
// saying so.
#include <gtest/gtest.h>

#include <string>

#include "cli/run_mimic.hpp"
#include "support/shared_data.hpp"

namespace mimic::test {
namespace {

TEST(CliClipContacts, ShippedBoxerPrintsHisPhasesStepsAndTravel) {
  const RunResult r = run_mimic({"info", sample("data/mocap/boxing.bvh").string(), "--contacts"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  for (const char* text :
       {"landmarks: preset cmu-motionbuilder; feet from right_ankle + right_toe",
        "support phases (time order", "stance (from the start)", "in place", "flight phases: none",
        "travel 0.583 m, displacement 0.084 m", "steps: 5", "the clip travels: 5 step(s)"}) {
    EXPECT_NE(r.out.find(text), std::string::npos) << "'" << text << "'\n" << r.describe();
  }
}

TEST(CliClipContacts, ShippedWalkerPrintsHisTenSteps) {
  const RunResult r = run_mimic({"info", sample("data/mocap/walk.bvh").string(), "--contacts"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  for (const char* text : {"landmarks: preset cmu-motionbuilder; feet from right_ankle + right_toe",
                           "frames: 1140 at 120.000 Hz (9.500 s)", "flight phases: none",
                           "steps: 10, cadence", "the clip travels: 10 step(s)"}) {
    EXPECT_NE(r.out.find(text), std::string::npos) << "'" << text << "'\n" << r.describe();
  }
}

TEST(CliClipContacts, WalkingMarkerClipSaysItTravels) {
  MIMIC_REQUIRE_SHARED(clip, "mocap/c3d/ezc3d__Qualisys.c3d");
  const RunResult r = run_mimic({"info", clip.string(), "--contacts"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  for (const char* text : {"landmarks: preset qualisys", "steps: 4, cadence", "the clip travels: 4 step(s)"})
    EXPECT_NE(r.out.find(text), std::string::npos) << "'" << text << "'\n" << r.describe();
}

TEST(CliClipContacts, StandingClipSaysSo) {
  MIMIC_REQUIRE_SHARED(clip, "mocap/c3d/c3dorg-s00__nexgen_test1.c3d");
  const RunResult r = run_mimic({"info", clip.string(), "--contacts"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("the clip stands still: no step"), std::string::npos) << r.describe();
}

TEST(CliClipContacts, LandmarksAndContactsTogetherIsAUsageError) {
  const RunResult r =
      run_mimic({"info", sample("data/mocap/boxing.bvh").string(), "--contacts", "--landmarks"});
  EXPECT_EQ(r.exit_code, 2) << r.describe();
}

TEST(CliClipContacts, ClipWithoutFeetIsBadInputThatSaysWhy) {
  MIMIC_REQUIRE_SHARED(clip, "mocap/c3d/btkdata__vicon_shd01.c3d");  // upper-body markers only
  const RunResult r = run_mimic({"info", clip.string(), "--contacts"});
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_NE(r.err.find("contacts need the feet"), std::string::npos) << r.describe();
  EXPECT_NE(r.err.find("right_ankle"), std::string::npos) << r.describe();
}

}  // namespace
}  // namespace mimic::test
