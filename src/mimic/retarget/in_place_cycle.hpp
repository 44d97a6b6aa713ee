// In-place locomotion clips (issue 14): game-style walk cycles ("in place" clips) keep the root still and
// slide each stance foot backwards under it, so that a game engine can add the travel itself. Read as they
// are, their feet never stand still and clip_contacts finds no support phase. Here such a clip is recognised
// (the root barely travels while the lower foot moves backwards in the pelvis frame most of the time, each
// foot taking its turn) and its root motion is recovered: the stance foot is held still in the world, so
// the whole body moves by minus the stance foot's displacement, the two feet blended by their heights
// across double support. The shifted track then reads as a travelling walk (contacts, footsteps, travel).
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "mimic/retarget/landmark_track.hpp"

namespace mimic::retarget {

// Lengths in leg lengths L (as in ClipContactOptions), speeds in L per second.
struct InPlaceCycleOptions {
  // The root "barely travels" when the pelvis never goes further than this from where it started (0.1 L =
  // 8 cm: a walk travels a stride, 0.7 L, in half a second; an in-place cycle sways a few centimetres).
  double max_root_excursion = 0.1;
  // The lower foot (the stance foot) "slides backwards" at a frame when its horizontal velocity along the
  // pelvis' forward axis is below -min_slide_speed: 0.3 L/s is clip_contacts' enter_speed, the speed above
  // which a foot is not taken as planted; an in-place walk slides at the walking speed, 1 to 2 L/s.
  double min_slide_speed = 0.3;
  // ... in at least this fraction of the frames (the rest: double support and the turn-over between the
  // feet), and each foot is the lower one in at least min_foot_share of them (a walk alternates; a boxer
  // who slides one foot back does not).
  double min_sliding_share = 0.6;
  double min_foot_share = 0.25;
  // Across double support the feet are blended by their heights above their own lowest level: weight 1
  // on the lower foot when it is this much (0.03 L = 2.5 cm) below the other, linear in between.
  double blend_height = 0.03;
};

struct InPlaceCycle {
  bool detected = false;
  // Why the clip is (or is not) taken as an in-place cycle, in numbers.
  std::string reason;
  // Per frame: the horizontal offset added to every landmark (zero at frame 0), and its path length.
  std::vector<Eigen::Vector2d> root_offset;
  double travel = 0.0;
};

// Detection and, when detected, the recovered root offsets. Needs the pelvis, hips and ankles (as
// detect_clip_contacts; a track without them is not detected, the contacts then say why).
InPlaceCycle detect_in_place_cycle(const LandmarkTrack& track, const InPlaceCycleOptions& options = {});

// `track` with every landmark of frame k moved by cycle.root_offset[k] (orientations are horizontal-
// translation invariant and unchanged). Returns the track as it is when the cycle was not detected.
LandmarkTrack with_recovered_root_motion(LandmarkTrack track, const InPlaceCycle& cycle);

}  // namespace mimic::retarget
