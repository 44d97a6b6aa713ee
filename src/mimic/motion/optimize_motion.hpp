// The motion optimisation stage (seed 000 sections V-VI): a kinematic reference in, the 200 Hz joint
// trajectories of the active upper body out, with every limit met at the output rate, and what it cost.
//
// Failure policy: optimize_motion() never throws for a solver failure or a limit it could not meet; it
// returns MotionResult::success == false with `failure` naming the worst violated constraint (joint,
// time, kind, amount). Callers that must not go on with such a motion call require_success(), which
// throws InfeasibleError with that text. It throws InfeasibleError itself only when the pinned ends
// q_c(t0), q_c(tf) already violate the angle limits, or keep two shapes inside the safety distance that
// the arms cannot move apart within their limits (no trajectory can then be feasible), InputError for
// a malformed input and ModelError for a model without the description's joints or frames.
#pragma once

#include <Eigen/Core>
#include <limits>
#include <string>
#include <vector>

#include "mimic/core/progress.hpp"
#include "mimic/evaluation/peak.hpp"
#include "mimic/evaluation/report.hpp"
#include "mimic/model/limits.hpp"
#include "mimic/model/model.hpp"
#include "mimic/motion/geometry_constraints.hpp"
#include "mimic/motion/motion_input.hpp"
#include "mimic/motion/motion_problem.hpp"
#include "mimic/motion/reference_clearance.hpp"
#include "mimic/optim/solve_result.hpp"
#include "mimic/optim/solver.hpp"
#include "mimic/trajectory/bspline_basis.hpp"

namespace mimic::motion {

struct MotionSettings {
  Objective objective = Objective::kImitation;
  double sigma = 1.0;          // weight of the head / hand position error (imitation)
  double torque_weight = 0.0;  // imitation: weight of the torque integral (the blended objective)
  // Torque objective: the integral by the rectangle rule on every this many-th sample
  // (ProblemOptions::objective_stride), which then also replaces torque_stride; 1: every sample.
  int torque_objective_stride = 1;
  // Torque objective: its solve starts from the least-torque posture and the ramps to it and back
  // (torque_objective_start.hpp), which use this fraction of the velocity limits; false: from the reference
  // (a clip too short for the ramps starts there anyway).
  bool torque_objective_start = true;
  double start_velocity_fraction = 0.5;
  // Torque objective: when the torques of the initial guess stay below this fraction of every limit at
  // every torque sample between the pinned ends, those samples get no torque-limit rows from the first
  // solve (only their pair rows); the 200 Hz check adds them where a solution breaks a limit, as for any
  // sample off the grid. Such a motion's minimum stays far below the limits too (boxing: 0.35 of them), and
  // the rows (26816 of boxing's 39530 inequality rows) would only be evaluated, written and screened at
  // every step without ever switching on. A start that comes near a limit anywhere keeps the rows at every
  // sample: leaving out only those of the samples far from it made a first solve crawl (boxing with 6 kg in
  // the right gripper at half the torque ratings: 71 ALM iterations and 7055 steps against 10 and 788).
  // 0: rows at every torque sample.
  double torque_objective_row_ratio = 0.5;
  model::LimitFactors limits;
  double knot_spacing = trajectory::kDefaultKnotSpacing;  // s
  optim::SolverOptions solver;                            // back end, tolerances and caps
  // Torque limits are first imposed at every torque_stride-th sample (and the last); each 200 Hz
  // sample found violating one afterwards is added and the problem solved again from the last point,
  // at most max_refinements times.
  int torque_stride = 4;
  int max_refinements = 4;
  // Self-collision (issue 13; none without geometry.collision): the pairs the active joints can move
  // apart (collision_screening.hpp) that come within geometry.safety_distance + collision_activation of
  // each other somewhere on the reference get rows at the torque samples; a pair or sample that a
  // solution brings inside the safety distance is added like a torque violation (at most max_refinements
  // rounds). 0.05 m: the solution leaves the reference by a few centimetres where the imitation gives
  // way (measured on boxing: head/hand RMS 2-3 cm), so a pair farther than that on the reference stays
  // clear; a nearer activation only moves the first rows to a later round.
  GeometryConstraintOptions geometry;
  double collision_activation = 0.05;  // m
};

struct MotionMetrics {
  // Active joints against q_c over every sample (rad); gaze and gripper positions against P_c (m).
  evaluation::ImitationErrors imitation;
  // The largest ratio over the active joints and the 200 Hz output, against the factored limits:
  evaluation::Peak angle;     // |q - middle| / half of the factored range
  evaluation::Peak velocity;  // |qdot| / factored velocity limit
  evaluation::Peak torque;    // |tau| / factored torque limit
  // Integral of tau^T tau over the active joints (trapezoid over the samples), N^2 m^2 s: what the torque
  // and the blended objectives weigh (the problem's base motion; no ground reaction).
  double active_torque_integral = 0.0;
  // The closest pair the active joints move (none without a collision model): its distance (m, < 0
  // when the shapes overlap), its name and time.
  double min_distance = std::numeric_limits<double>::infinity();
  std::string closest_pair;
  double closest_time = 0.0;
};

struct MotionResult {
  Eigen::MatrixXd joints;     // nj x N, model order, at the input samples (200 Hz)
  Eigen::VectorXd variables;  // the solution's free control points (MotionProblem's x)
  MotionMetrics metrics;
  optim::SolveResult solve;    // the last solve
  int solves = 0;              // 1 + torque refinements
  int total_iterations = 0;    // over every solve
  double total_seconds = 0.0;  // solver time over every solve
  int torque_samples = 0;      // samples with torque constraints in the last solve
  int collision_pairs = 0;     // pairs with self-collision rows in the last solve
  // rad: the largest change of an active joint at a pinned end moved out of the safety distance before the
  // solve (end_pose_clearance.hpp); 0 when both ends of the reference are clear.
  double end_shift = 0.0;
  // The runs of deep self-collision of the reference cleared before the solve (reference_clearance.hpp);
  // runs == 0 when it has none.
  ReferenceClearance reference_clearance;
  bool success = false;  // solver converged AND the 200 Hz check found no violation
  std::string failure;   // empty on success: else what failed, with the worst violated constraint
};

// `model`: the robot with a free-flyer, with any payload already added (model::with_payload);
// `description` names its active joints and imitated frames (motion_problem.hpp).
MotionResult optimize_motion(const model::Model& model, const model::RobotDescription& description,
                             const MotionInput& input, const MotionSettings& settings,
                             const ProgressCallback& progress = {});

// Throws InfeasibleError("motion optimisation: " + result.failure) unless result.success.
void require_success(const MotionResult& result);

// The torque samples that get no torque-limit rows in the torque objective's first solve
// (MotionSettings::torque_objective_row_ratio): every one between the pinned ends when the torques `tau`
// (nj x N, of the initial guess) stay below `ratio` of the (factored) limit of every active joint at all of
// them, none otherwise (a NaN torque counts as near). `torque_samples` ascending, the pinned ends first and
// last.
std::vector<int> pair_only_samples(const std::vector<int>& torque_samples, const Eigen::MatrixXd& tau,
                                   const std::vector<int>& active, const model::ScaledLimits& limits,
                                   double ratio);

// 200 Hz check tolerance: a ratio up to 1 + kLimitTolerance counts as within the limit.
inline constexpr double kLimitTolerance = 1e-6;

// m the self-collision rows ask beyond the safety distance, so that the written motion keeps it: the
// solvers hold the rows to a relative 1e-6 (1e-8 m), and the ZMP stabilizer that follows shifts the waist
// and re-solves the legs, which moves a thigh against a hand by a fraction of the waist shift (2.1 mm at
// most on the shipped boxing job). The 200 Hz check and the failure test use the safety distance itself.
inline constexpr double kStabilizerMargin = 1e-3;

}  // namespace mimic::motion
