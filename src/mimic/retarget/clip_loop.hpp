// Looping clips (issue 14): a game-style walk cycle is one gait cycle whose last frame continues into its
// first, meant to be played over and over. Played once it is too short to walk: one cycle is two steps,
// and the robot must start and stop standing, so the first and the last support phases of the cycle are
// cut by the clip's ends (MakeHuman's walk1: its left support is split across the wrap, each part shorter
// than the minimum phase, and the left foot is never found on the floor). Here such a clip is recognised
// (the pose at the end equals the pose at the start up to one frame's motion, the root's horizontal place
// and heading excepted, and the body moves across the wrap) and played several times, each cycle continuing
// where the previous one ended, so that the support phases that the wrap cut are whole again.
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>

#include "mimic/retarget/in_place_cycle.hpp"
#include "mimic/retarget/landmark_track.hpp"

namespace mimic::retarget {

// Lengths in leg lengths L (clip_leg_length), speeds in L per second, as in ClipContactOptions.
struct ClipLoopOptions {
  // A clip that rests at its ends (stands at the start and at the end, as every capture session does)
  // needs no loop: the robot starts and stops standing anyway, and a standing pose at both ends would
  // otherwise pass for a wrap. The clip "moves at its wrap" when some landmark moves, relative to the root,
  // faster than this between its first two and its last two frames: 0.3 L/s is clip_contacts' enter_speed,
  // the speed below which a foot counts as still; a walk's swing foot moves at 1-3 L/s.
  double min_wrap_speed = 0.3;
  // The last frame continues into the first when no landmark moves (relative to the root) across the wrap
  // by more than this many times the smaller of its first and last frame steps: 1 would be "exactly one
  // frame's motion"; 1.5 leaves room for a foot that speeds up over a frame at 24 Hz (a clip cut anywhere
  // else is off by a pose change of many frames).
  double max_wrap_ratio = 1.5;
  // The last frame repeats the first (some tools close a loop that way) when the wrap step is below this
  // fraction of the end steps: that frame is then the next cycle's first and is not played twice. A copy
  // is exact or off by the file's rounding; a tenth of a frame's motion still tells it from a wrap at which
  // the motion slows (MakeHuman's walk1: 0.068 m across its wrap, 0.26 and 0.29 m at its ends).
  double duplicate_ratio = 0.1;
  // Played times when the job says auto: enough cycles for this many steps. The robot starts and stops
  // standing where the looped human is already and still walking: it loses about half a step of travel at
  // each end and a step or two to get into the gait and out of it. Twelve steps keep those ends within a
  // sixth of the walk (the acceptance allows a quarter of the scaled travel) and make two-step cycles six:
  // walk1 lasts 3.5 s then.
  int min_steps = 12;
};

struct ClipLoop {
  bool detected = false;
  // Why the clip is (or is not) a loop, in numbers.
  std::string reason;
  // One cycle: its frames (without a closing frame that repeats the first) and its duration.
  int cycle_frames = 0;
  double cycle_duration = 0.0;
  bool closing_duplicate = false;
  // The root's horizontal rigid motion from one cycle to the next (rotation by `turn` about +z, then
  // `shift`): the identity when the root comes back to where it started (an in-place cycle).
  double turn = 0.0;
  Eigen::Vector2d shift = Eigen::Vector2d::Zero();
};

// Whether `track` is a loop. Needs the pelvis (a track without it is not a loop).
ClipLoop detect_clip_loop(const LandmarkTrack& track, const ClipLoopOptions& options = {});

// The loop played `repeats` times (>= 1): cycle c is the first cycle moved by c times the loop's root
// motion; a closing frame that repeats the first ends the played clip once. repeats = 1 and a track that
// is no loop are returned as they are.
LandmarkTrack repeated_loop(const LandmarkTrack& track, const ClipLoop& loop, int repeats);

// How a loop is played (the summary's and the report's `loop`).
struct LoopPlay {
  ClipLoop loop;
  int repeats = 1;           // times the loop is played (1 for a clip that is no loop)
  bool repeats_auto = true;  // chosen by ClipLoopOptions::min_steps, not by the job
  int cycle_steps = 0;       // steps in one cycle (read from the middle one of three cycles played)
  int min_steps = 0;         // ClipLoopOptions::min_steps of the auto rule
  // "loop: 0.583 s cycle (14 frames) played 6 times (2 steps a cycle; auto: enough for 12 steps)"; empty
  // for a clip that is no loop.
  std::string summary() const;
};

// The clip as the retarget and `mimic info --contacts` read it: a loop played several times, then an
// in-place walk cycle given its root motion back (in_place_cycle.hpp).
struct PlayedClip {
  LandmarkTrack track;
  LoopPlay play;
  InPlaceCycle in_place;
};

// `requested_repeats`: nullopt (auto) plays a loop enough times for ClipLoopOptions::min_steps steps, and
// a loop without steps (an idle or a gesture cycle) once; a number plays it that many times, and is an
// InputError (naming `key`) on a clip that is no loop.
PlayedClip play_clip(const LandmarkTrack& track, std::optional<int> requested_repeats = std::nullopt,
                     const ClipLoopOptions& options = {}, const std::string& key = "retarget.loop_repeats");

}  // namespace mimic::retarget
