// In-place locomotion clips (retarget/in_place_cycle): data/mocap/walk.bvh's steady walk made in place (the
// pelvis' horizontal travel subtracted from every landmark of every frame) must be recognised and its root
// motion recovered, so that its contacts read as the original's; the travelling and the standing shipped
// clips must not be taken as in place.
#include "mimic/retarget/in_place_cycle.hpp"

#include <gtest/gtest.h>

#include <iostream>

#include "mimic/mocap/load.hpp"
#include "mimic/retarget/clip_contacts.hpp"
#include "mimic/retarget/landmark_track.hpp"
#include "retarget/shipped_tracks.hpp"
#include "support/shared_data.hpp"

namespace mimic::retarget {
namespace {

using test_tracks::made_in_place;
using test_tracks::shipped;

// walk.bvh from 1.8 s to 7.3 s: the steps of 0.6 m at 105 steps/min, the turn included, without the
// standing start and the closing step (an in-place cycle is the steady gait; see tests/retarget/
// clip_contacts.cpp for the plan).
LandmarkTrack steady_walk() {
  LandmarkTrack track = shipped("walk.bvh");
  const auto first = static_cast<std::ptrdiff_t>(1.8 * track.rate);
  const auto last = static_cast<std::ptrdiff_t>(7.3 * track.rate);
  track.frames = std::vector<LandmarkFrame>(track.frames.begin() + first, track.frames.begin() + last);
  return track;
}

TEST(InPlaceCycle, WalkMadeInPlaceRecoversTheOriginalStepsAndTravel) {
  const LandmarkTrack original = steady_walk();
  const ClipContacts expected = detect_clip_contacts(original);
  const LandmarkTrack in_place = made_in_place(original);
  // As it is, the in-place walk loses most of its support phases (its stance feet slide at the walking
  // speed; only the turn-over between the feet, where a foot's slide slows, can pass for a touchdown).
  EXPECT_LT(detect_clip_contacts(in_place).step_count(), expected.step_count() / 2);

  const InPlaceCycle cycle = detect_in_place_cycle(in_place);
  std::cout << cycle.reason << "; travel " << cycle.travel << " m\n";
  ASSERT_TRUE(cycle.detected) << cycle.reason;
  const ClipContacts recovered = detect_clip_contacts(with_recovered_root_motion(in_place, cycle));
  std::cout << "original: " << expected.step_count() << " steps, travel " << expected.travel
            << " m; recovered: " << recovered.step_count() << " steps, travel " << recovered.travel << " m\n";
  EXPECT_EQ(recovered.step_count(), expected.step_count());
  // The recovery holds a joint centre still (the ankle, the toe joint from heel rise on), but a real foot
  // rolls over its heel at heel strike and over its toe tip at push-off, which no joint centre of the
  // skeleton follows: the ankle, 8 cm from the heel, moves ~1.5 cm forward as the foot turns 10-15 degrees
  // onto the floor. That is lost at every step (measured: 2.3-2.9 cm per stride of two steps, 2.5 % of the
  // travel); it does not add up beyond it (the other frames are exact: the recovered offsets undo the
  // subtraction).
  EXPECT_NEAR(recovered.travel, expected.travel, 0.03 * expected.travel);
  // Strides (two steps each): as long as the original's within two rolls of 1.5 cm and 0.5 cm of noise.
  std::vector<double> a, b;
  for (const auto& s : expected.footsteps)
    if (s.step) a.push_back(s.stride);
  for (const auto& s : recovered.footsteps)
    if (s.step) b.push_back(s.stride);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 1; i < a.size(); ++i) EXPECT_NEAR(b[i], a[i], 0.035) << "step " << i;
}

TEST(InPlaceCycle, TravellingAndStandingClipsAreNotInPlace) {
  for (const char* file : {"walk.bvh", "boxing.bvh"}) {
    const InPlaceCycle cycle = detect_in_place_cycle(shipped(file));
    std::cout << file << ": " << cycle.reason << "\n";
    EXPECT_FALSE(cycle.detected) << file;
  }
  EXPECT_FALSE(detect_in_place_cycle(steady_walk()).detected);
}

TEST(InPlaceCycle, MakeHumanWalkCycleIsInPlace) {
  MIMIC_REQUIRE_SHARED(path, "mocap/bvh/makehuman__walk1.bvh");
  const LandmarkTrack track = extract_landmarks(mocap::load_clip(path));
  const InPlaceCycle cycle = detect_in_place_cycle(track);
  std::cout << cycle.reason << "; travel " << cycle.travel << " m\n";
  EXPECT_TRUE(cycle.detected);
  const ClipContacts c = detect_clip_contacts(with_recovered_root_motion(track, cycle));
  for (const auto& s : c.footsteps)
    std::cout << (s.foot == ClipFoot::kRight ? "right " : "left ") << s.interval.start << "-"
              << s.interval.end << " step " << s.step << " stride " << s.stride << "\n";
  std::cout << "steps " << c.step_count() << ", travel " << c.travel << "\n";
}

}  // namespace
}  // namespace mimic::retarget
