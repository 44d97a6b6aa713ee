// Looping clips (retarget/clip_loop): one gait cycle cut from data/mocap/walk.bvh's steady walk (its last
// frame continuing into its first), made in place as a game's walk cycle is, at 120 Hz and at 24 Hz, must be
// recognised as a loop and played until its support phases are whole and its steps as the original's; the
// same cycle with its root travelling, and with a closing frame that repeats the first, too. Clips that are
// no loop (the shipped walk and boxer, a clip that rests at its ends) must be read exactly as before.
#include "mimic/retarget/clip_loop.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <limits>

#include "mimic/core/error.hpp"
#include "mimic/mocap/load.hpp"
#include "mimic/retarget/clip_contacts.hpp"
#include "mimic/retarget/landmark_track.hpp"
#include "retarget/shipped_tracks.hpp"
#include "support/shared_data.hpp"

namespace mimic::retarget {
namespace {

using test_tracks::made_in_place;
using test_tracks::shipped;

// walk.bvh's straight walk at its steady 1.2 m strides, 2.9 s to 4.4 s (after its first two, shorter,
// steps and before its turn; tests/retarget/clip_contacts.cpp lists them),
// every `every`-th frame (5: 24 Hz).
LandmarkTrack straight_walk(int every) {
  const LandmarkTrack walk = shipped("walk.bvh");
  LandmarkTrack track = walk;
  track.frames.clear();
  for (auto k = static_cast<std::size_t>(2.9 * walk.rate); k < static_cast<std::size_t>(4.4 * walk.rate);
       k += static_cast<std::size_t>(every))
    track.frames.push_back(walk.frames[k]);
  track.rate = walk.rate / every;
  return track;
}

// The pose's distance between two frames, relative to the pelvis (its heading is constant here).
double pose_distance(const LandmarkFrame& a, const LandmarkFrame& b) {
  double d = 0.0;
  for (std::size_t l = 0; l < a.position.size(); ++l) {
    const Eigen::Vector3d pa =
        a.position[l] - Eigen::Vector3d(a[Landmark::kPelvis].x(), a[Landmark::kPelvis].y(), 0.0);
    const Eigen::Vector3d pb =
        b.position[l] - Eigen::Vector3d(b[Landmark::kPelvis].x(), b[Landmark::kPelvis].y(), 0.0);
    if ((pa - pb).allFinite()) d = std::max(d, (pa - pb).norm());
  }
  return d;
}

// One gait cycle of `track` from its first frame, closed into a loop as an animator closes a game's walk
// cycle: frame e is the pose closest to frame 0 between 0.9 and 1.4 s on (walk.bvh's stride lasts 1.14 s),
// and the remaining mismatch (walk.bvh's strides differ by a few centimetres) is spread linearly over the
// cycle, so that frame e is frame 0 moved by the pelvis' travel and frame e - 1 continues into frame 0 as
// into frame e. The cycle is frames [0, e), or [0, e] with `closing` (a closing frame that repeats the
// first).
LandmarkTrack one_cycle(const LandmarkTrack& track, bool closing = false) {
  int e = 0;
  double best = std::numeric_limits<double>::infinity();
  for (int k = static_cast<int>(0.9 * track.rate); k < static_cast<int>(1.4 * track.rate); ++k) {
    const double d = pose_distance(track.frames.front(), track.frames[static_cast<std::size_t>(k)]);
    if (d < best) best = d, e = k;
  }
  LandmarkTrack cycle = track;
  cycle.frames.assign(track.frames.begin(), track.frames.begin() + e + 1);
  const LandmarkFrame& f0 = cycle.frames.front();
  const LandmarkFrame fe = cycle.frames.back();
  Eigen::Vector3d travel = fe[Landmark::kPelvis] - f0[Landmark::kPelvis];
  travel.z() = 0.0;
  for (int k = 0; k <= e; ++k) {
    LandmarkFrame& f = cycle.frames[static_cast<std::size_t>(k)];
    for (std::size_t l = 0; l < f.position.size(); ++l)
      f.position[l] += (static_cast<double>(k) / e) * (f0.position[l] + travel - fe.position[l]);
  }
  if (!closing) cycle.frames.pop_back();
  return cycle;
}

std::vector<double> strides(const ClipContacts& c) {
  std::vector<double> out;
  for (const auto& s : c.footsteps)
    if (s.step) out.push_back(s.stride);
  return out;
}

void print(const char* what, const PlayedClip& played, const ClipContacts& c) {
  std::cout << what << ": " << played.play.summary() << " [" << played.play.loop.reason << "]; "
            << c.step_count() << " steps, travel " << c.travel << " m, cadence " << c.cadence() << "\n";
}

// The in-place cycle at 120 and at 24 Hz: a loop of one stride (two steps), played six times (twelve
// steps), whose contacts read the original walk's steps: both feet find their support phases, the strides
// are the original's 1.2 m (walk.bvh's steady strides; see tests/retarget/clip_contacts.cpp) and the
// cadence its 105 steps/min.
void expect_in_place_cycle_played(int every) {
  const LandmarkTrack original = straight_walk(every);
  const LandmarkTrack cycle = one_cycle(made_in_place(original));
  const ClipLoop loop = detect_clip_loop(cycle);
  ASSERT_TRUE(loop.detected) << loop.reason;
  EXPECT_FALSE(loop.closing_duplicate) << loop.reason;
  EXPECT_EQ(loop.cycle_frames, cycle.frame_count());
  // The root comes back: each cycle is played where the first one was.
  EXPECT_EQ(loop.shift.norm(), 0.0);
  EXPECT_EQ(loop.turn, 0.0);

  const PlayedClip played = play_clip(cycle);
  const ClipContacts c = detect_clip_contacts(played.track);
  print(every == 1 ? "120 Hz in place" : "24 Hz in place", played, c);
  EXPECT_TRUE(played.in_place.detected) << played.in_place.reason;
  EXPECT_EQ(played.play.cycle_steps, 2);
  EXPECT_EQ(played.play.repeats, 6);
  EXPECT_TRUE(played.play.repeats_auto);
  EXPECT_EQ(played.track.frame_count(), 6 * cycle.frame_count());
  // Six strides of two steps, less the first support of each foot, which starts with the clip or one
  // step into it (a foot in the air at frame 0 comes down early in the first cycle: a step).
  EXPECT_GE(c.step_count(), 10);
  EXPECT_LE(c.step_count(), 12);
  for (int foot = 0; foot < 2; ++foot) {
    int phases = 0;
    for (const auto& s : c.footsteps) phases += static_cast<int>(s.foot) == foot ? 1 : 0;
    EXPECT_GE(phases, 5) << "foot " << foot;
  }
  // Strides after each foot's first: walk.bvh's 1.2 m, within the 3.5 cm that the in-place recovery loses
  // to the foot's roll over heel and toe (tests/retarget/in_place_cycle.cpp) and a frame of 24 Hz motion
  // at the touchdown (the ankle moves ~1 cm in the last frame before it is planted).
  // At 24 Hz the in-place recovery reads them shorter (0.94 m measured: retarget/in_place_cycle holds the
  // ankle or the toe, whichever is lower at the frame, and at 24 Hz the switch between them falls a frame
  // of a 2.5 m/s slide off the roll), but every cycle alike: the loop repeats one cycle exactly.
  const std::vector<double> s = strides(c);
  ASSERT_GE(s.size(), 4u);
  for (std::size_t i = 2; i < s.size(); ++i) {
    if (every == 1) EXPECT_NEAR(s[i], 1.2, 0.045) << "step " << i;
    EXPECT_NEAR(s[i], s[2], 0.01) << "step " << i;
  }
  // walk.bvh's cadence, 105 steps/min (one step every 0.57 s), within a frame's timing at each end.
  EXPECT_NEAR(c.cadence(), detect_clip_contacts(original).cadence(), 4.0);
}

TEST(ClipLoop, InPlaceWalkCycleAt120HzIsPlayedSixTimes) { expect_in_place_cycle_played(1); }
TEST(ClipLoop, InPlaceWalkCycleAt24HzIsPlayedSixTimes) { expect_in_place_cycle_played(5); }

// Played once, the cycle's ends cut its support phases: fewer than the two steps of a cycle are whole.
TEST(ClipLoop, OneCyclePlayedOnceLosesItsStepsAcrossTheWrap) {
  const LandmarkTrack cycle = one_cycle(made_in_place(straight_walk(5)));
  const PlayedClip once = play_clip(cycle, 1);
  EXPECT_EQ(once.play.repeats, 1);
  EXPECT_FALSE(once.play.repeats_auto);
  EXPECT_EQ(once.track.frame_count(), cycle.frame_count());
  EXPECT_LT(detect_clip_contacts(once.track).step_count(),
            detect_clip_contacts(play_clip(cycle).track).step_count());
}

// A closing frame that repeats the first is recognised and played once, at the end.
TEST(ClipLoop, ClosingFrameThatRepeatsTheFirstIsNotPlayedTwice) {
  const LandmarkTrack cycle = one_cycle(made_in_place(straight_walk(1)), true);
  const ClipLoop loop = detect_clip_loop(cycle);
  ASSERT_TRUE(loop.detected) << loop.reason;
  EXPECT_TRUE(loop.closing_duplicate) << loop.reason;
  EXPECT_EQ(loop.cycle_frames, cycle.frame_count() - 1);
  const LandmarkTrack played = repeated_loop(cycle, loop, 3);
  EXPECT_EQ(played.frame_count(), 3 * loop.cycle_frames + 1);
}

// The cycle with its root travelling (walk.bvh as it is): a loop whose next cycle starts one stride
// ahead. Played three times it is walk.bvh's walk over three strides: the repeated frames are the
// original's frames of one and two strides later, to the pose mismatch of the cut (below a frame's motion)
// and the stride's own variation.
TEST(ClipLoop, TravellingCycleContinuesWhereTheLastEnded) {
  const LandmarkTrack walk = straight_walk(1);
  const LandmarkTrack cycle = one_cycle(walk);
  const ClipLoop loop = detect_clip_loop(cycle);
  ASSERT_TRUE(loop.detected) << loop.reason;
  std::cout << loop.reason << "\n";
  // One stride along +x, no turn (walk.bvh walks straight along +x here).
  EXPECT_NEAR(loop.shift.x(), 1.2, 0.02);
  EXPECT_NEAR(loop.shift.y(), 0.0, 0.01);
  EXPECT_NEAR(loop.turn, 0.0, 0.01);
  const LandmarkTrack played = repeated_loop(cycle, loop, 2);
  ASSERT_EQ(played.frame_count(), 2 * cycle.frame_count());
  // The second cycle's first 0.1 s against walk.bvh's own frames one stride later (walk.bvh turns from
  // 4.25 s on, 0.1 s after the second stride starts): within 2 cm (the cut's mismatch, spread over the
  // cycle, is below a frame's motion, 2 cm for a swing foot at 120 Hz; walk.bvh's strides agree within 1 cm).
  const LandmarkTrack whole = shipped("walk.bvh");
  const auto offset = static_cast<std::size_t>(2.9 * whole.rate);
  for (int k = cycle.frame_count(); k < cycle.frame_count() + static_cast<int>(0.1 * whole.rate); ++k)
    for (Landmark l : {Landmark::kPelvis, Landmark::kRightAnkle, Landmark::kLeftAnkle})
      EXPECT_LT((played.frames[static_cast<std::size_t>(k)][l] -
                 whole.frames[offset + static_cast<std::size_t>(k)][l])
                    .norm(),
                0.02)
          << "frame " << k;
}

// Clips that are no loop: the shipped travelling walk and boxer, and the walk with a rest at its ends
// (a capture that starts and ends standing still in the same pose) are played once, as they are.
TEST(ClipLoop, ClipsThatAreNoLoopAreReadAsBefore) {
  for (const char* file : {"walk.bvh", "boxing.bvh"}) {
    const LandmarkTrack track = shipped(file);
    const PlayedClip played = play_clip(track);
    std::cout << file << ": " << played.play.loop.reason << "\n";
    EXPECT_FALSE(played.play.loop.detected) << file;
    EXPECT_EQ(played.play.repeats, 1);
    EXPECT_EQ(played.play.summary(), "");
    // Exactly the track of the reading before loops (in-place detection and recovery only).
    const LandmarkTrack before = with_recovered_root_motion(track, detect_in_place_cycle(track));
    ASSERT_EQ(played.track.frame_count(), before.frame_count());
    for (std::size_t k = 0; k < before.frames.size(); ++k)
      for (std::size_t l = 0; l < before.frames[k].position.size(); ++l) {
        const Eigen::Vector3d& a = played.track.frames[k].position[l];
        const Eigen::Vector3d& b = before.frames[k].position[l];
        EXPECT_TRUE(a.cwiseEqual(b).all() || (a.hasNaN() && b.hasNaN())) << file << " frame " << k;
      }
    // A number of plays asked for on a clip that is no loop is refused, naming the key.
    try {
      play_clip(track, 2);
      ADD_FAILURE() << file << ": two plays of a clip that is no loop accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("retarget.loop_repeats: the clip is no loop"), std::string::npos)
          << e.what();
    }
  }
  // The cycle between two rests in its first pose: its ends are still, it is no loop.
  LandmarkTrack rests = one_cycle(made_in_place(straight_walk(1)));
  const LandmarkFrame first = rests.frames.front();
  rests.frames.insert(rests.frames.begin(), 30, first);
  rests.frames.insert(rests.frames.end(), 30, first);
  const ClipLoop loop = detect_clip_loop(rests);
  EXPECT_FALSE(loop.detected) << loop.reason;
}

// MakeHuman's walk1 (24 Hz, 14 frames): a loop in place, played six times; both feet are found on the
// floor (the left support was split across the wrap) and every cycle steps twice.
TEST(ClipLoop, MakeHumanWalkCycleIsALoopPlayedSixTimes) {
  MIMIC_REQUIRE_SHARED(path, "mocap/bvh/makehuman__walk1.bvh");
  const LandmarkTrack track = extract_landmarks(mocap::load_clip(path));
  const PlayedClip played = play_clip(track);
  const ClipContacts c = detect_clip_contacts(played.track);
  print("walk1", played, c);
  ASSERT_TRUE(played.play.loop.detected) << played.play.loop.reason;
  EXPECT_EQ(played.play.loop.cycle_frames, 14);
  EXPECT_EQ(played.play.cycle_steps, 2);
  EXPECT_EQ(played.play.repeats, 6);
  EXPECT_TRUE(played.in_place.detected) << played.in_place.reason;
  for (int foot = 0; foot < 2; ++foot) {
    int phases = 0;
    for (const auto& s : c.footsteps) phases += static_cast<int>(s.foot) == foot ? 1 : 0;
    EXPECT_GE(phases, 5) << "foot " << foot;
  }
  EXPECT_GE(c.step_count(), 10);
}

}  // namespace
}  // namespace mimic::retarget

namespace mimic::retarget {
namespace {

// assimp's CMU 01_03 jumps 0.61 m from its first frame to its second (a rest pose before the motion) and
// happens to end 0.60 m from its first pose: a glitch at one end is no frame's motion, and it is no loop.
TEST(ClipLoop, AGlitchAtOneEndIsNoLoop) {
  MIMIC_REQUIRE_SHARED(path, "mocap/bvh/assimp__cmu_01_03.bvh");
  const ClipLoop loop = detect_clip_loop(extract_landmarks(mocap::load_clip(path)));
  std::cout << loop.reason << "\n";
  EXPECT_FALSE(loop.detected) << loop.reason;
}

}  // namespace
}  // namespace mimic::retarget
