// A whole-body motion sampled in time, as the dynamics sees it: configurations q (free-flyer base +
// joints), and velocities / accelerations by finite differences, with the support phase of each sample.
// Built from OpenHRP sequence files (.pos + .waist / .hip) for `mimic check`, `mimic smooth` and plots.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/io/motion_files.hpp"
#include "mimic/model/contact_phase.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot_config.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/stability/ground_reaction.hpp"
#include "mimic/stability/support_polygon.hpp"

namespace mimic::stability {

// The motion type and its differentiation moved to model/sampled_motion.hpp (issue 12, WP2); these names
// stay until WP15.
using model::differentiate;
using model::SampledMotion;

// Thresholds of support detection from foot kinematics. A foot is in contact at a sample when its sole is
// at most `height_tolerance` above the ground (the lowest sole height over the whole motion: planned
// motions are on flat ground, wherever its level is) and its sole origin moves slower than
// `speed_tolerance`. 5 mm clears the sole-height noise of a mocap-driven leg IK while a swing foot of a
// walking pattern rises 2-5 cm; 0.1 m/s separates a still foot (0 by construction) from a swing foot,
// whose mean speed over a 0.8 s step of 0.2 m is 0.25 m/s. A sample where neither foot qualifies takes the
// lower foot (the robot has no flight phase).
struct ContactDetectionOptions {
  double height_tolerance = 0.005;  // m
  double speed_tolerance = 0.1;     // m/s
};

// Per-sample support phases from the sole trajectories of q (nq x N).
std::vector<ContactPhase> detect_contact_phases(const model::Model& model, const Feet& feet,
                                                const std::vector<double>& times, const Eigen::MatrixXd& q,
                                                const ContactDetectionOptions& options = {});

// The base poses of a joint trajectory without .waist: the first sample stands with both soles flat on
// z = 0; afterwards the foot in support (the foot lower in the world) stays where it is and the base
// follows. Support passes to the other foot as soon as it is lower by more than `hysteresis`: in double
// support both soles are on the ground, so either gives the same base, and switching at the first
// micrometre of lift (not after a few millimetres) keeps the lifting foot from dragging the base down and
// the foot still on the ground from sliding. On a switch the new support sole is put back on z = 0 when it
// is within a millimetre of it, so that rounding does not accumulate over the steps. `rpy` (N x 3,
// optional, from .hip) fixes the base orientation instead of the support foot's.
Eigen::MatrixXd reconstruct_base(const model::Model& model, const Feet& feet, const Eigen::MatrixXd& joints,
                                 const Eigen::MatrixXd* rpy = nullptr, double hysteresis = 1e-6);

// The sampled motion of a set of sequence files: base from .waist (or .hip + reconstruction, or
// reconstruction alone), joints from .pos (the model's joints must be the 30 OpenHRP joints), v and a by
// differentiate(), phases from `intervals` when given (model::phases_from_intervals), else detected.
SampledMotion sampled_motion(const model::Model& model, const Feet& feet, const io::MotionFiles& files,
                             const std::vector<model::ContactInterval>& intervals = {},
                             const ContactDetectionOptions& detection = {});

}  // namespace mimic::stability
