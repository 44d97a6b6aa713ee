// Support phases of a motion that states none (a .pos without a job's `contacts:`), from the sole
// trajectories: which foot is on the ground at each sample.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/model/contact_phase.hpp"
#include "mimic/model/model.hpp"
#include "mimic/stability/ground_reaction.hpp"
#include "mimic/stability/support_polygon.hpp"

namespace mimic::stability {

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

// Per-sample support phases from the sole trajectories of q (nq x N, one configuration per entry of
// `times`).
std::vector<model::ContactPhase> detect_contact_phases(const model::Model& model, const Feet& feet,
                                                       const std::vector<double>& times,
                                                       const Eigen::MatrixXd& q,
                                                       const ContactDetectionOptions& options = {});

}  // namespace mimic::stability
