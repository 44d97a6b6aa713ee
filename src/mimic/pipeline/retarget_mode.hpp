// Which body `mimic retarget` moves (issue 14): the upper body on planted feet (seed 000) or the whole
// body walking the clip's footsteps (pipeline/whole_body_retarget.hpp). `retarget.mode: auto` (the default)
// reads the contacts from the clip (retarget/clip_contacts.hpp) and walks the clip that walks (below); the
// retarget pipeline falls back to the upper body, with a warning, when an auto-chosen whole-body retarget
// turns out infeasible for the robot (pipeline/retarget_pipeline.cpp).
#pragma once

#include <optional>
#include <string>

#include "mimic/io/job.hpp"
#include "mimic/retarget/clip_contacts.hpp"
#include "mimic/retarget/landmark_track.hpp"

namespace mimic::pipeline {

// A clip walks (auto then chooses the whole body) when it has steps AND its pelvis ends more than this many
// leg lengths (retarget::ClipContacts::leg_length) from where it started. Half a leg length (about 0.4 m for
// an adult) is about half of a walking stride and far above what footwork in place leaves: the shipped boxing
// clip takes 5-6 keyframed steps over 0.58 m of pelvis path but ends 0.084 m (0.10 L) from its start, and
// must stay seed 000's upper-body retarget; the CMU walk 131_01 ends 2.59 m (3.2 L) away. The net
// displacement and not the path length: a boxer's weight shifts add up to a path, not to a journey.
inline constexpr double kWalkingDisplacement = 0.5;

// An upper-body retarget of a clip whose pelvis ends farther than this (in leg lengths, 0.25 L = about
// 0.2 m, a short step) from its start warns that the robot stands still while the human travels: below
// it the difference is the sway of a person standing (boxing: 0.10 L, no warning).
inline constexpr double kTravelWarning = 0.25;

struct RetargetModeChoice {
  bool whole_body = false;
  // Chosen by retarget.mode auto (not asked for): an infeasible whole-body retarget may fall back.
  bool auto_chosen = false;
  // The clip's contacts, when they could be read (they need both hips and ankles and two frames).
  std::optional<retarget::ClipContacts> contacts;
  std::string reason;  // why this mode, one line for the log and the summary
  // What the clip's contacts say about it when auto chose the whole body ("18 step(s), the pelvis ends
  // 3.733 m (4.53 leg lengths) from its start (above 0.50)"; the reason is "whole body: " + evidence): the
  // fallback to the upper body repeats it; empty otherwise.
  std::string evidence;
};

// Chooses the mode of a retarget job from its `requested` mode and the clip's landmarks. Auto chooses the
// whole body for a clip that walks (steps, and the pelvis ends more than kWalkingDisplacement leg lengths
// from its start) without flight phases; on a clip whose contacts cannot be read (an upper-body marker set,
// a single frame) or that runs or hops it keeps the upper body. An explicit whole_body then throws the
// detection's InputError. Whole body with retarget.kinematic_only is
// an InputError (the baseline is the upper-body retarget), and so is the whole body on a clip with a
// flight phase (running, jumping). Logs the warning above for an upper-body
// retarget of a clip that travels.
RetargetModeChoice choose_retarget_mode(const retarget::LandmarkTrack& track, const io::JobConfig& job);

}  // namespace mimic::pipeline
