// Walking pattern generator: from a footstep plan to a whole-body HRP-2 motion sampled at the control
// period, in the manner of Kajita et al., "Biped walking pattern generation by using preview control of
// zero-moment point", ICRA 2003:
//  1. the schedule (walking_schedule.hpp) gives the ZMP reference, the sole trajectories and the waist
//     height and yaw at every sample;
//  2. preview control of the cart-table (preview_control.hpp; 5 ms, 1.6 s preview, Q = 1, R = 1e-6, all
//     Kajita 2003 section III) turns the ZMP reference into a centre-of-mass trajectory, with the cart at
//     zc = the CoM height of the initial pose (half-sitting legs, upper body at t = 0, payload included);
//  3. at each sample the waist is placed horizontally so that the multibody CoM (payload included) is the
//     cart's: a few fixed-point passes "CoM error -> waist shift", each refitting both legs
//     (stability::refit_legs, seeded by the previous sample) to the sole poses of the schedule; the upper
//     body comes from an UpperBodyTrajectory.
//  4. the multibody ZMP of the result is recomputed from the motion itself (finite differences and the
//     full dynamics); the cart-table CoM of its error against the reference is added to the target,
//     Kajita's "dynamics filter" (2003, section IV, with the exact cart-table solve in place of the second
//     preview control, see the .cpp), and step 3 is redone. The final multibody ZMP is what the .zmp file
//     carries and what the checks are made on.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/walking/preview_control.hpp"
#include "mimic/walking/walking_schedule.hpp"
#include "mimic/walking/walking_upper_body.hpp"

namespace mimic::walking {

struct WalkingOptions {
  // Kajita 2003 section III: 5 ms, 1.6 s preview, Q = 1, R = 1e-6. cart.period is the sample period of the
  // pattern; cart.com_height is replaced by the CoM height of the initial pose.
  PreviewControlOptions preview;
  // Waist correction: passes per sample and the horizontal CoM error at which they stop. Each pass shifts
  // the waist by the CoM error over a secant estimate of d(CoM)/d(waist) (~0.8: the feet stay put), from
  // the previous sample's waist - CoM offset, so 2 or 3 passes reach the tolerance. The tolerance must be
  // tight: a CoM jitter e becomes a ZMP jitter of about zc e / (g dt^2) = 3300 e at 5 ms.
  int max_com_passes = 10;
  double com_tolerance = 1.0e-9;  // m (ZMP jitter ~3e-6 m)
  // Passes of Kajita's dynamics filter (2003, section IV): the cart-table CoM of the error between the
  // reference and the multibody ZMP is added to the cart's. 0 = the cart-table alone.
  int dynamics_filter_passes = 1;
  // Reach: where a sole is out of the legs' reach (or needs a joint beyond its limits) with the waist at its
  // planned height, the waist is lowered there until both legs reach, plus reach_margin, and the lowering is
  // spread smoothly over the samples around: dilated by 3 lowering_smoothing, then averaged three times over
  // +-lowering_smoothing (a cubic B-spline's shape, so the waist height keeps a continuous acceleration:
  // 0.05 m of lowering takes 1.5 s in and out, at most 0.1 m/s^2, against the cart-table's 9.81).
  // Such a step happens when the preview control carries the CoM over the support foot while the other
  // foot is far away: a long step right after a step of the same foot, a wide stance at a weight transfer,
  // or a robot whose nominal knees are nearly straight (G1). A walk whose soles are reachable everywhere is
  // unchanged. reach_margin keeps the knee bent by the margin (1 cm: HRP-2's knee at ~24 degrees instead of
  // straight, away from the singularity where its speed blows up) and absorbs the small change of the
  // waist's horizontal placement when the lowering changes the CoM. max_lowering bounds the search, as a
  // fraction of the nominal waist height (0.25: 16 cm on HRP-2, where its knee nears 90 degrees).
  double reach_margin = 0.01;        // m
  double lowering_smoothing = 0.25;  // s
  double max_lowering = 0.25;        // fraction of the nominal waist height
  int max_lowering_rounds = 4;       // placements with the lowering updated before giving up
};

struct WalkingPattern {
  // The whole-body motion at the control period: times k * period (k = 0..N-1), q (free-flyer waist +
  // joints, model order), v and a by model::differentiate, and the schedule's contact phase per sample.
  model::SampledMotion motion;
  Eigen::MatrixXd zmp_reference;                          // N x 3, world, on the ground (z = 0)
  Eigen::MatrixXd com;                                    // N x 3, world: the preview-control CoM (x, y) and
                                                          // the multibody CoM height (z)
  Eigen::MatrixXd zmp;                                    // N x 3, world: multibody ZMP of the motion (z = 0)
  std::vector<model::ContactInterval> contact_intervals;  // the phases as the job YAML's `contacts:`
  double com_height = 0.0;                                // zc of the preview control, m
  int com_passes = 0;                                     // most waist-correction passes used at one sample
  double com_error = 0.0;                                 // largest horizontal CoM error left, m
  // How far the waist was lowered below its planned height for the legs to reach (WalkingOptions::
  // reach_margin), per sample, m; all zero for a walk that needs none.
  std::vector<double> waist_lowering;

  Eigen::Index size() const { return motion.size(); }
};

// The pattern. `model` is the robot as it walks (with its payload, see model/payload.hpp): its CoM is the
// one made to follow the cart. The model must be a biped: a free-flyer and two 6-joint legs ending at
// the description's sole frames (stability::Legs). Throws InfeasibleError naming the time and the leg when a
// sole pose is out of reach or needs a joint beyond its limits even with the waist lowered (see
// WalkingOptions::reach_margin), or when the waist correction does not converge.
WalkingPattern generate_walking_pattern(const model::Model& model, const model::RobotDescription& description,
                                        const WalkSchedule& schedule, const UpperBodyTrajectory& upper_body,
                                        const WalkingOptions& options = {});

// The multibody ZMP (world, on z = 0) of a motion (q, v, a filled): the contact wrench of the full
// dynamics (dynamics::zmp) at each sample. NaN where the ground would have to pull.
Eigen::MatrixXd multibody_zmp(const model::Model& model, const model::SampledMotion& motion);

}  // namespace mimic::walking
