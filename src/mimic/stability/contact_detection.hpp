// Support phases of a motion that states none (a .pos or .csv without a job's `contacts:`), from the sole
// trajectories: which foot is on the ground at each sample.
//
// A foot is in support only while it is really still on the floor. Per foot:
//  1. Down: its sole origin is near the floor level (the median height of the lower foot: on flat ground
//     one foot is always on it, whatever its level), entering below `h_on` and leaving above 2 h_on
//     (hysteresis: a still foot's noise stays within +-h_on, a lifted one goes far above). h_on is
//     `noise_factor` times the motion's own sole-height noise, within [min, max]_height_tolerance.
//  2. Lifts shorter than `min_gap` between two downs are bridged (noise, not steps).
//  3. Each down run is trimmed at its ends to the samples where the foot stands at its placement:
//     touchdown is the first sample from which the sole corners stay within the placement tolerance of
//     their pose there for `edge_duration` (or to the run's end), lift-off the last such sample counting
//     backwards, i.e. the last before the foot moves. A swing foot leaves and reaches the floor slowly (a
//     minimum-jerk swing z = h 64 tau^3 (1 - tau)^3 of 5 cm is below a millimetre for its first 6 %), so
//     the height alone keeps the approach and the lift-off in support and `check` sees their motion as
//     slip. Only within `edge_duration` of the run's ends: a foot that moves on the floor for longer is
//     sliding, stays in support, and `check` reports the slip.
//  4. Supports shorter than `min_support` are dropped (a swing grazing the floor), but for one that the
//     motion's start or end cuts (a short clip of a stance).
// A sample where neither foot is in support takes the lower foot: the robot has no flight phase.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/model/contact_phase.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/spatial/se3.hpp"
#include "mimic/stability/ground_reaction.hpp"

namespace mimic::stability {

// Every length is in metres and every duration in seconds, never in samples, so that a motion gives the
// same phases at 200, 50 or 30 Hz (to the sample period at the phase ends).
struct ContactDetectionOptions {
  // Tolerances are this many standard deviations of the motion's own noise (estimated from the second
  // differences of the sole trajectories where the feet are low, which a still foot makes pure noise): a
  // still foot's Gaussian noise leaves +-4 sigma in 6e-5 of its samples, and the hysteresis (2 h_on to
  // leave) makes even those no lift.
  double noise_factor = 4.0;
  // 1 micrometre: a thousand times the precision of our own feet (leg IK to 1e-9 m, .pos files printed
  // to 16 digits), a thousandth of check's slip tolerance (1 mm). On a noise-free planned walk it dates
  // touchdown and lift-off to the sample: a minimum-jerk swing of 0.05 m rises 1 um in its first 0.7 %.
  double min_height_tolerance = 1.0e-6;
  // 5 mm: a swing foot clears the floor by 2 cm or more (HRP-2 5 cm, JVRC-1 and G1 4 cm) and a
  // mocap-driven foot is noisy to a few mm; above this the "noise" is motion, not noise.
  double max_height_tolerance = 0.005;
  // The same micrometre for how far a sole corner may be from its placement (the foot still, noise apart).
  double min_placement_tolerance = 1.0e-6;
  // How long the low-but-moving end of a swing may last: a minimum-jerk swing of clearance H and duration
  // T is above the highest level where a down foot leaves (2 x 5 mm) after T (0.01 / (64 H))^(1/3): 0.10 s
  // for HRP-2's 0.7 s swing of 5 cm, 0.09 s for G1's 0.6 s of 4 cm, 0.14 s for a 0.7 s swing of 2 cm (and
  // far less on a noise-free motion, 1 um: one sample). A foot moving on the floor for longer slides.
  double edge_duration = 0.15;
  // 0.05 s: half the shortest real phase of a humanoid gait (double support 0.1 s, a swing 0.3 s or
  // more), so bridging lifts and dropping supports shorter than it removes noise, never a step.
  double min_gap = 0.05;
  double min_support = 0.05;
};

// Whether one foot is in support at each sample, from its sole poses (world, one per entry of `times`),
// its sole rectangle (for the corners) and the floor level.
std::vector<bool> detect_foot_support(const std::vector<double>& times, const std::vector<spatial::SE3>& sole,
                                      const model::SoleRectangle& outline, double floor,
                                      const ContactDetectionOptions& options = {});

// Per-sample support phases from the sole poses of both feet (world, one per entry of `times`).
std::vector<model::ContactPhase> detect_contact_phases(const std::vector<double>& times,
                                                       const std::vector<spatial::SE3>& right_sole,
                                                       const std::vector<spatial::SE3>& left_sole,
                                                       const model::SoleRectangle& right_outline,
                                                       const model::SoleRectangle& left_outline,
                                                       const ContactDetectionOptions& options = {});

// Per-sample support phases from the sole trajectories of q (nq x N, one configuration per entry of
// `times`).
std::vector<model::ContactPhase> detect_contact_phases(const model::Model& model, const Feet& feet,
                                                       const std::vector<double>& times,
                                                       const Eigen::MatrixXd& q,
                                                       const ContactDetectionOptions& options = {});

}  // namespace mimic::stability
