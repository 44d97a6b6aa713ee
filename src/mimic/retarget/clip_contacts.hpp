// Contacts read from a clip (issue 14): when each of the human's feet is on the floor, where it stood and
// which way it pointed, where the pelvis went and whether both feet ever left the floor together. The input
// is the landmark track (landmark_track.hpp), so skeletons and marker sets are treated alike. This is the
// clip's counterpart of stability/contact_detection, which reads a ROBOT motion's soles: a landmark is not a
// sole (an ankle joint stands some centimetres above the floor, the floor level is unknown and the data is
// noisy), hence per-landmark floor levels, hysteresis and minimum phase lengths here.
#pragma once

#include <Eigen/Core>
#include <array>
#include <vector>

#include "mimic/retarget/landmark_track.hpp"

namespace mimic::retarget {

enum class ClipFoot : int { kRight = 0, kLeft = 1 };

// Thresholds of the detection. Lengths are in units of the subject's leg length L (hip to knee to ankle,
// the median over the clip, about 0.9 m for an adult) and speeds in L per second, so that a child, an adult
// and a clip in odd units that were converted right all behave alike; durations are in seconds and become
// frame counts at the clip's rate (at least one frame).
struct ClipContactOptions {
  // A landmark's floor level is this quantile of its height over the clip: a foot is down for at least 5 %
  // of any clip that has contacts at all (walking keeps each foot down ~60 % of the time, a jump or a run
  // ~30 %), and the quantile ignores the odd noisy frame below it.
  double floor_quantile = 0.05;
  // Hysteresis on each foot landmark (ankle, toe): it becomes planted when it is at most enter_height above
  // its floor level and slower than enter_speed, and stays planted until it rises above leave_height or
  // moves faster than leave_speed. 0.04 L (3.5 cm) is above the 1-3 cm that a joint centre or a skin
  // marker of a planted foot wanders as the foot rolls (CMU 131_01: its toe joint sits 4.1 to 7 cm high
  // on the floor, and 2-4 cm higher on tiptoe); 0.08 L (7 cm) is below the 10 cm or more that an ankle
  // rises in a swing (the toe rises only 1-2 cm at mid-swing, but it moves at metres per second then, and a
  // heel that rises slowly at push-off leaves the toe planted). 0.3 L/s (0.27 m/s) is well above the speed
  // noise left by the speed window below (1 mm noise: ~0.04 m/s) and 0.6 L/s well below a swing foot's
  // mean speed (twice the walking speed, 1 to 3 m/s). The gap between the enter and leave values keeps a
  // noisy sample near one threshold from toggling the contact.
  double enter_height = 0.04;
  double leave_height = 0.08;
  double enter_speed = 0.3;
  double leave_speed = 0.6;
  // Speeds are central differences over +- this half window: 1/60 s is two frames at 120 Hz (noise
  // averaged over 4 frames) and one frame at 24-60 Hz, so that a touchdown is dated within two frames.
  double speed_half_window = 1.0 / 60.0;
  // A foot is down when its ankle or its toe is planted (heel strike: the ankle; push-off: the toe). Shorter
  // lifts than min_swing are bridged (a foot that shuffles in place did not step; a walking swing lasts
  // 0.35-0.5 s, a running flight 0.1 s), then shorter supports than min_support are dropped (a swing foot
  // that grazes the floor; a running stance lasts 0.2 s).
  double min_swing = 0.08;
  double min_support = 0.1;
  // A support phase is a step when its foot stands at least this far (in L, 0.1 L = 9 cm) from where it
  // stood in its previous support phase: a boxer who lifts a heel and puts it down again has not stepped.
  double min_step_distance = 0.1;
  // The pelvis path on the floor is the pelvis averaged over this centred window: one stride (about 1 s)
  // cancels the gait's side-to-side sway and the landmark noise, which would otherwise add up to metres of
  // path length on a long clip that stands still.
  double path_window = 1.0;
  // A clip "stands still" when it has no step and its pelvis path is shorter than this (in L; 0.2 L =
  // 18 cm): a boxer sways and shifts his weight, he does not travel.
  double still_travel = 0.2;
};

// Frames [first, last] of the clip (inclusive), with their times in seconds from the first frame.
struct ClipInterval {
  int first = 0;
  int last = 0;
  double start = 0.0;
  double end = 0.0;
  double duration() const { return end - start; }
};

// One support phase of one foot and the foot's pose on the floor during it.
struct ClipFootstep {
  ClipFoot foot = ClipFoot::kRight;
  ClipInterval interval;
  // The ankle's point on the floor (median over the frames where the ankle is planted, else over the phase)
  // and the heading of the foot's long axis (radians about +z from +x): the heel-to-toe line where the
  // landmarks have heels (marker sets: a one-malleolus ankle is off that axis), else the ankle-to-toe line,
  // else the pelvis heading.
  Eigen::Vector2d position = Eigen::Vector2d::Zero();
  double heading = 0.0;
  // True when the foot came down here after standing elsewhere (see min_step_distance); false for a
  // support phase that starts with the clip, or a foot lifted and put down in place.
  bool step = false;
  // Distance from the same foot's previous support phase (0 for its first).
  double stride = 0.0;
};

struct ClipContacts {
  double rate = 0.0;
  int frame_count = 0;
  double leg_length = 0.0;  // L, m
  // Floor level: the lowest floor level of the foot landmarks (that of the toes when the clip has them).
  double floor = 0.0;
  // Per frame: is each foot down (indexed by ClipFoot).
  std::array<std::vector<bool>, 2> down;
  // Support phases of both feet in time order (of their start, right foot first on a tie).
  std::vector<ClipFootstep> footsteps;
  // Intervals with both feet off the floor (neither down, no foot landmark within enter_height of its
  // floor level), each at least min_swing long: running or jumping.
  std::vector<ClipInterval> flights;
  // The pelvis path on the floor, one point per frame (see ClipContactOptions::path_window), its length and
  // the distance from its start to its end.
  std::vector<Eigen::Vector2d> pelvis_path;
  double travel = 0.0;
  double displacement = 0.0;
  bool stands_still = false;

  int step_count() const;
  // Steps per minute between the first and the last step (0 with fewer than two steps).
  double cadence() const;
};

// The subject's leg length L (hip to knee to ankle, or hip to ankle without knees): the median over the
// clip of both legs, the unit of every threshold above.
double clip_leg_length(const LandmarkTrack& track);

// Contacts of the clip whose landmarks are `track`. Needs both ankles and both hips (and uses the knees and
// toes when the track has them); InputError otherwise, naming what is missing.
ClipContacts detect_clip_contacts(const LandmarkTrack& track, const ClipContactOptions& options = {});

}  // namespace mimic::retarget
