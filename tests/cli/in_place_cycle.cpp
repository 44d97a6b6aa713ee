// In-place walk cycles end to end (retarget/in_place_cycle): `mimic info --contacts` on MakeHuman's walk
// cycle says that its root motion was recovered and reads the walk it stands for; a travelling clip does
// not get that line. (The recovery's numbers are checked in tests/retarget/in_place_cycle.cpp.)
#include <gtest/gtest.h>

#include <string>

#include "cli/run_mimic.hpp"
#include "support/shared_data.hpp"

namespace mimic::test {
namespace {

TEST(CliInPlaceCycle, MakeHumanWalkCycleTravelsOnceItsRootMotionIsRecovered) {
  MIMIC_REQUIRE_SHARED(clip, "mocap/bvh/makehuman__walk1.bvh");
  const RunResult r = run_mimic({"info", clip.string(), "--contacts"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  // The 14-frame cycle is a loop, played six times (retarget/clip_loop, tests/cli/clip_loop.cpp): eleven
  // steps of 1.44 m strides, the first support of the right foot one step in.
  for (const char* text : {"loop: 0.583 s cycle (14 frames) played 6 times",
                           "in-place cycle: root motion recovered from the stance feet, travel 8.650 m",
                           "steps: 11, cadence 205.7 steps/min", "the clip travels: 11 step(s)"}) {
    EXPECT_NE(r.out.find(text), std::string::npos) << "'" << text << "'\n" << r.describe();
  }
}

TEST(CliInPlaceCycle, ShippedWalkIsNotInPlace) {
  const RunResult r = run_mimic({"info", sample("data/mocap/walk.bvh").string(), "--contacts"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.out.find("in-place cycle"), std::string::npos) << r.describe();
  EXPECT_EQ(r.out.find("loop:"), std::string::npos) << r.describe();
}

}  // namespace
}  // namespace mimic::test
