// The torque-minimising smoothing of a planned motion (seed 001 problem (7), (11)) as an optim::Problem.
//
// Active and passive parts (seed 001 section II). The active coordinates are the joints of the two legs
// (stability::Legs: right hip yaw .. ankle roll, then left) and the base's horizontal position; the upper
// body is passive: its angles, velocities and accelerations are the planned ones, but its dynamics count in
// every torque. What else of the base stays as planned, and why:
//  * its height: seed 001's task is "walk while lowering the pelvis", so the waist height is part of the
//    plan. Left free, the torque objective raises the waist until the knees are straight (no gravity
//    moment about a straight knee), undoing the task and driving the legs into the stretched-knee
//    singularity: measured on the shipped scenario, the final leg IK then finds the support foot out of
//    reach (t = 0.405 s);
//  * its orientation: it enters the dynamics nonlinearly through the twist (R^T pdot, omega), and keeping it
//    keeps every derivative exact and the carried bar's posture in the world as planned.
// The support-foot constraints stay satisfiable: each leg alone has the 6 DoF to reach its foot.
// Knee control points are also kept >= SmoothingOptions::min_knee_flexion (away from that singularity).
//
// Variables: quartic B-spline control points (trajectory::SplineParameterization, 2 + leg joints) of
//   d(t) = p_xy(t) - p_xy,planned(t)   the base's horizontal deviation from the plan (world x, y), and
//   s(t)                               the leg angles minus a fixed offset: q_leg(t) = s(t) + r(t),
// r = q_leg,planned - (the spline fit of q_leg,planned), what of the plan the splines cannot represent (its
// rates and accelerations likewise: planned minus the fit's analytic ones). Without r, legs that are pure
// splines could not follow the planned waist's motion (its height and orientation stay as planned, at a
// finer time scale than the 0.1 s knots) with the feet still: the fit of the plan itself had its support
// feet 0.41 mm off, and the optimum stayed 0.11 mm off between equality samples. With r the initial guess IS
// the plan (feet exact) and the optimiser only moves smoothly away from it. The angle and velocity limits
// of the spline are those of the joint minus r's extreme values (2.8 mrad / 0.094 rad/s at most on
// the shipped walk), so they still hold for the sum at every t.
// Both ends are kFixedAtRest: d = 0 and q_leg = the planned posture at t0 and tf with zero velocity and
// acceleration, so the boundary conditions of (11) are exact and cost no constraint.
// With the planned base orientation R(t), body angular velocity omega(t) and the planned base twist, and
// d = (d_x, d_y, 0),
//   v_base = [v_planned + R^T d',  omega],  a_base = [a_planned + R^T d'' - omega x (R^T d'),  omega'],
// so the base partials map to d by  dy/dd = R g_q,  dy/dd' = R (g_v + omega x g_a),  dy/dd'' = R g_a
// (their x, y components; g = the partials w.r.t. the base's linear tangent / velocity / acceleration).
//
// Objective (seed 001 eq. (7)): 1/2 |r|^2 with, at every sample n (the planned 200 Hz grid),
//   r = sqrt(dt) tau_j   for the 30 joints, tau with the ground reaction of seed 001 section III-C
//                        (stability/ground_reaction.hpp): single support puts the whole contact wrench
//                        W = dh/dt - m g on the support foot; double support shares it by the lever rule
//                        on the CoM's ground projection. The sole centres in the share are the PLANNED ones
//                        (the support feet are held there); the CoM, W and their derivatives are exact.
//   r = w_p sqrt(dt) (p_sole - p_planned), w_r sqrt(dt) log3(R_planned^T R_sole)   for each foot in support
//                        (a stiff penalty: with the equalities below only on a grid, it keeps the foot still
//                        BETWEEN grid samples, so that the final leg-IK projection changes the legs only by
//                        a smooth, tiny amount and the torques of the written motion stay those optimised).
// Since 1/2 |r|^2 = 1/2 sum_n dt tau^T tau + penalty, the torque integral is 2 f minus the penalty.
// Quadrature (issue 15): with SmoothingOptions::objective_stride k > 1 the torque residuals are only on
// every k-th sample (the nodes), each weighted sqrt(c dt) with c the number of samples it stands for
// (objective_weights: k inside, fewer at the ends; the c add up to N), so that 1/2 sum_nodes c dt tau^T
// tau is the midpoint rule for the same integral. The torques' RNEA derivatives and the ground reaction
// are then computed at the nodes and the torque-limit samples only; the feet's penalty rows, the
// equalities and the inequalities stay where they are (every constraint is as before). What the written
// motion is judged by (pipeline/smooth.hpp: the evaluation's torque integral at every sample) is not
// approximated. Measured on the bar walk: README, smooth section, "Speed (issue 15 ...)".
//
// Constraints, scaled by their limits so that the solvers' feasibility tolerance is a fraction of them:
//   support foot  h = (p_sole - p_planned) / kSupportPositionScale, log3(R_planned^T R_sole) /
//   kSupportAngleScale (6 rows
//                 per foot in support) at SmoothingOptions::equality_samples: the contact instants
//                 (touchdown, seed 001 "G_foot = G_ref at t_c") and a grid inside each support phase. On
//                 EVERY sample the paper's "support foot velocity and acceleration = 0" (with the
//                 placement at t_c) cannot be met by a spline exactly (the foot pose is a nonlinear
//                 function of the splines); on a grid of one sample per knot interval it can. The written
//                 motion is then projected on the exact constraint by the leg IK (pipeline/smooth.hpp).
//   angle         variable bounds on the leg control points (convex hull, as motion_problem.hpp).
//   velocity      the leg joints' derivative control polygon (as motion_problem.hpp).
//   torque        +-tau_j / tau_max_j - 1 <= 0 for the 30 joints at SmoothingOptions::torque_samples.
//   geometry      (issue 13, with SmoothingOptions::geometry.collision): on the torque samples every
//                 constrained pair of collision shapes at least safety_distance apart (terms::SelfCollision),
//                 and on every other SmoothingOptions::pair_stride-th sample (issue 15) the constrained pairs
//                 near there: within safety_distance + collision_activation of each other in the plan at
//                 that sample (a pair of SmoothingOptions::collision_pairs, not near along the plan: on
//                 every such sample). Along a walk the legs' pairs are near for part of each step only:
//                 walk.bvh's whole body had 8 pairs on all 3732 samples, 16895 pair rows now instead of
//                 29856, the bar walk 8908 instead of 12187, and neither needs a second solve. A pair that
//                 the optimum still brings closer where it has no row is caught by the check at every sample
//                 (geometry_breaches), which adds the sample as a torque sample (every pair). And on EVERY
//                 single-support sample the swing sole's four corners on or above the floor
//                 (terms::SoleClearance) and its roll and pitch within max_swing_tilt of the plan
//                 (terms::SwingSoleOrientation). The tilt bound is active through most of a swing (the
//                 torque optimum pitches the foot toe-down): on the torque samples alone, the samples
//                 between broke it and the refinement added 207 of them, each with 60 torque rows (3 solves,
//                 26 iterations); six rows on 8 coordinates per sample cost far less. The support foot gets
//                 neither: its equalities hold it at its planned flat placement, where a clearance row would
//                 be degenerate (active with a zero-rank change), and the penalty keeps it there between
//                 them. Constrained pairs: those that one of the active coordinates can move (a leg joint
//                 moves one shape and not the other: the base's horizontal shift moves the whole robot
//                 rigidly, and two upper-body shapes stay as planned, whatever x) and that come within
//                 safety_distance + collision_activation along the planned motion, plus
//                 SmoothingOptions::collision_pairs (the refinement's additions, pipeline/smooth.cpp).
//                 Each row is written as its normalised finite bounds u / upper - 1 and u / lower - 1
//                 (term.hpp; the pair distances and sole corners have a lower bound only).
//
// The rows come from terms (src/mimic/terms) on the SplineProblem core (spline_problem.hpp): TorqueResidual
// and TorqueLimits with the ground reaction, SupportFoot (residual and equality) per foot, and the geometry
// terms above. Which of them a sample has depends on its contact phase and on whether it is an equality or
// torque sample and on its pairs, so there is one row set per such combination (the terms shared; one
// SelfCollision term per set of pairs), one block per sample.
// weight * scale is applied before the chain rule for the feet's residuals and equalities, after it for the
// torques and every inequality row, as the problem always did (keeping that keeps the solver's path bit for
// bit). The base coordinates d map their partials through map_partials (above). A pair's rows take the
// coordinates of its term's pattern, the leg joints that move one of its shapes and not the other (the base
// moves both: d's partials are exactly zero there); they took every coordinate before, which cost the bar
// walk's smoothing 4.8 % more instructions (callgrind, 1 thread) for the same solution.
//
// evaluate is const: all scratch lives in a SmoothingProblemData (create_data()), so two threads can evaluate
// one problem with one SmoothingProblemData each. The optim::Problem entry point uses the problem's own
// SmoothingProblemData.
#pragma once

#include <Eigen/Core>
#include <array>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "mimic/model/limits.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/motion/geometry_constraints.hpp"
#include "mimic/motion/spline_problem.hpp"
#include "mimic/stability/leg_refit.hpp"
#include "mimic/terms/sample_data.hpp"
#include "mimic/terms/self_collision.hpp"
#include "mimic/terms/sole_clearance.hpp"
#include "mimic/terms/support_foot.hpp"
#include "mimic/terms/swing_sole_orientation.hpp"
#include "mimic/terms/torque_limits.hpp"
#include "mimic/terms/torque_residual.hpp"
#include "mimic/trajectory/spline_parameterization.hpp"

namespace mimic::motion {

inline constexpr int kBaseCoordinates = 2;  // d: horizontal base position deviation (world x, y)

// Units of the support-foot equalities: 1 mm and 1 mrad, so that |h| = 1 is a 1 mm / 0.057 degree error
// and the feasibility tolerance (1e-6 by default) is a nanometre.
inline constexpr double kSupportPositionScale = 1e-3;  // m
inline constexpr double kSupportAngleScale = 1e-3;     // rad

struct SmoothingOptions {
  model::LimitFactors limits;
  double knot_spacing = 0.1;          // s
  std::vector<int> torque_samples;    // sample indices (ascending) with torque-limit rows
  std::vector<int> equality_samples;  // sample indices (ascending) with support-foot equalities
  // Penalty weights of the support-foot placement residuals. 1e5 / m makes a 0.1 mm drift cost as much as
  // a 10 N m torque on one joint over the same time; 6e4 / rad the same for 0.01 degree (1.75e-4 rad), so
  // that the two guarantees (pipeline/smooth.hpp: 0.1 mm, 0.01 degree) weigh alike. At 2e4 / rad the foot
  // rolled by 0.011 degree before the lift-off on the shipped walk (now 0.0013 degree).
  double foot_position_weight = 1e5;  // 1 / m
  double foot_rotation_weight = 6e4;  // 1 / rad
  // Lower bound on the knees' control points, rad (so on the knee angle at every t: convex hull). 0.2 rad
  // keeps the stretched-knee singularity of the leg IK away; HRP-2's walking patterns bend the knee more.
  double min_knee_flexion = 0.2;
  // Self-collision, floor and swing-sole constraints on the torque samples (header comment); none
  // without a collision model.
  GeometryConstraintOptions geometry;
  // m beyond the safety distance within which a movable pair of collision shapes (header comment),
  // somewhere along the planned motion, gets distance rows. The smoothing moves a leg shape relative to
  // another by what the torque optimum changes the legs: on the shipped bar walk every pair is at least
  // 78 mm apart in the plan (the soles), and without these rows the optimum overlapped the shanks by
  // 18.8 mm, so it moved them 97 mm or more closer. With 0.1 m the shanks' pair is screened in (7 pairs
  // in all); with 0.05 m no pair was, and the refinement had to add 3 (one more solve, 60 s -> 77 s). A
  // pair that still comes closer is added by the refinement (collision_pairs).
  double collision_activation = 0.1;
  // Indices into geometry.collision->pairs constrained besides those screened along the plan.
  std::vector<int> collision_pairs;
  // Samples between the torque objective's quadrature nodes (issue 15; header comment "Objective"):
  // 1 puts the torque residuals on every sample, as the problem always had them.
  int objective_stride = 1;
  // Samples between the pair distance rows besides those on the torque samples (header comment,
  // "geometry": there for the pairs near along the plan); 0: on the torque samples only, as the problem
  // always had them. Kinematic rows only (no torques, no RNEA derivatives): on every sample (1) a pair near
  // the plan cannot come closer between its rows, where the check at every sample (geometry_breaches) would
  // otherwise add the sample with torque rows and solve again (pipeline/smooth.hpp).
  int pair_stride = 0;
};

// The torque objective's quadrature (header comment "Objective"): for each of `samples` samples, how
// many samples its torque residuals stand for. The nodes are the multiples of `stride` (>= 1, else
// std::invalid_argument); every sample goes to its nearest node (a tie to the earlier one, the samples
// after the last node to it), so the counts add up to `samples`: stride 1 gives 1 everywhere.
std::vector<int> objective_weights(int samples, int stride);

// What a check of a motion against the problem's geometry constraints finds (SmoothingProblem::
// geometry_breaches), at the solvers' feasibility tolerance relative to each bound.
struct GeometryBreaches {
  std::vector<int> samples;        // ascending: a movable pair, a swing corner or the swing tilt broken
  std::vector<int> unconstrained;  // movable pairs without rows that broke the safety distance
  double min_distance = std::numeric_limits<double>::infinity();       // m, over the movable pairs
  double min_corner_height = std::numeric_limits<double>::infinity();  // m, swing soles
  double max_tilt = 0.0;                                               // rad, swing soles (roll, pitch)
};

using SmoothingProblemData = SplineProblemData;

class SmoothingProblem : public SplineProblem {
 public:
  // `model`: HRP-2 (free-flyer, OpenHRP joints) with any payload already added; `planned`: the planned
  // motion on a uniform grid (q, v, a, phases). Both must outlive the problem. Throws InputError for a
  // non-uniform grid or a motion too short for two knot intervals, std::invalid_argument for a sample
  // index out of range.
  SmoothingProblem(const model::Model& model, const stability::Feet& feet,
                   const model::SampledMotion& planned, SmoothingOptions options);

  std::string describe_constraint(optim::ConstraintKind kind, int index, double value) const override;

  const SmoothingOptions& options() const { return options_; }
  const model::ScaledLimits& limits() const { return limits_; }
  const stability::Legs& legs() const { return legs_; }

  // The planned motion's leg angles fitted by the spline (least squares), clamped into the bounds, with
  // d = 0: the initial guess.
  Eigen::VectorXd initial_guess() const;
  // Configurations (nq x N) of x at every sample: base position planned + d, planned orientation, legs
  // from the spline, upper body planned.
  Eigen::MatrixXd configurations(const Eigen::VectorXd& x) const;
  // The joint torques (nj x N) with the ground reaction, as the objective sees them (analytic spline
  // velocities and accelerations).
  Eigen::MatrixXd torques(const Eigen::VectorXd& x) const;
  // The robot's state at sample n for the spline values in `data.samples` (q, v, a, contact, index).
  void set_state(int n, SmoothingProblemData& data) const { set_state(n, 0, data); }
  // The pairs with distance rows (ascending indices into geometry.collision->pairs; empty without one).
  const std::vector<int>& collision_pairs() const { return collision_pairs_; }
  // Checks configurations (nq x N, e.g. configurations(x)) against the geometry constraints at EVERY
  // sample, every movable pair included (not only those with rows).
  GeometryBreaches geometry_breaches(const Eigen::MatrixXd& q) const;

 private:
  // One state: the planned motion with the base shifted by d and the legs from the spline (file comment).
  void set_state(int n, int state, SplineProblemData& data) const override;
  // d's partials through the planned base rotation (file comment), the legs' from their dofs.
  void map_partials(int n, const RowRef& gq, const RowRef& gv, const RowRef& ga,
                    SplineProblemData& data) const override;
  void set_bounds();
  void add_rows();
  // `objective_samples`: how many samples the sample's torque residuals stand for (0: none).
  // `pairs`: the collision pairs with distance rows there (ascending; empty: none).
  int row_set(model::ContactPhase phase, bool equalities, bool torque_limits, const std::vector<int>& pairs,
              int objective_samples);
  bool in_contact(int n, int foot) const;
  // The geometry terms (header comment) from the planned sole orientations.
  void build_geometry_terms(const std::array<std::vector<spatial::SE3>, 2>& sole_reference);
  // The foot in the air at sample n (kRight, kLeft), -1 in double support.
  int swing_foot(int n) const;

  stability::Feet feet_;
  const model::SampledMotion& planned_;
  SmoothingOptions options_;
  model::ScaledLimits limits_;
  stability::Legs legs_;
  std::vector<int> leg_joints_;  // model joint indices of the leg coordinates, right then left
  int n_ = 0;
  double dt_ = 0.0;
  std::array<std::vector<spatial::Vec3>, 2> sole_centre_;  // planned sole centres per sample
  std::vector<spatial::Mat3> rotations_;                   // planned base orientation per sample
  Eigen::VectorXd fit_;                                    // the spline fit of the planned legs, d = 0
  // The planned legs minus their spline fit (leg joints x N): angles, rates, accelerations.
  Eigen::MatrixXd leg_offset_q_, leg_offset_v_, leg_offset_a_;

  // The terms, shared by the row sets.
  std::shared_ptr<const terms::TorqueResidual> torque_;
  std::shared_ptr<const terms::TorqueLimits> torque_limits_;
  std::array<std::shared_ptr<const terms::SupportFoot>, 2> foot_residual_, foot_equality_;
  std::vector<int> movable_pairs_, collision_pairs_;  // geometry (header comment)
  // Per pair of the collision model, the samples where it is near along the plan (every sample for a pair
  // of SmoothingOptions::collision_pairs; empty for a pair without rows): its rows between the torque
  // samples go there.
  std::vector<std::vector<char>> pair_near_;
  // The distance rows' terms by their pairs (a sample's near pairs; every constrained pair on the torque
  // samples), each made by row_set when its set of pairs first comes up; and the check's over every movable
  // pair.
  std::map<std::vector<int>, std::shared_ptr<const terms::SelfCollision>> pair_terms_;
  std::shared_ptr<const terms::SelfCollision> movable_collision_;
  std::array<std::shared_ptr<const terms::SoleClearance>, 2> swing_clearance_;
  std::array<std::shared_ptr<const terms::SwingSoleOrientation>, 2> swing_orientation_;
  // Of each row set: its contact phase, objective weight, equalities and torque limits; its pairs.
  std::vector<std::pair<int, std::vector<int>>> row_set_keys_;
};

}  // namespace mimic::motion
