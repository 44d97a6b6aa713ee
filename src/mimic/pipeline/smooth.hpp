// The smooth stage (seed 001): a planned motion in, the torque-minimising motion out, projected on the
// exact support constraint, with the ZMP kept in the support polygon, and what it cost.
//
//   1. evaluate the planned motion (evaluation/check.hpp);
//   2. motion::SmoothingProblem (motion/smoothing_problem.hpp) with support-foot equalities at the first and
//   last sample of
//      every support run and one sample every support_stride_knots knot intervals between, torque-limit rows
//      every torque_stride samples, the
//      pair distance rows on those and, for the pairs near there along the plan, on every pair_stride-th
//      sample, the swing soles' corners and tilt on
//      every single-support sample (settings.geometry); solve (ALM or Ipopt); every 200 Hz sample where the
//      optimised spline breaks a torque limit or a geometry bound is added and the problem solved again
//      from there (at most max_refinements times: motion::refine, motion/refine.hpp; a solve that ends
//      infeasible, but for the iteration cap, ends the refinement, and the stage fails naming its worst
//      row). A pair of shapes
//      screened out along the plan that the solution brings within the safety distance gets its rows
//      then too: the problem is rebuilt with it and solved again from the last solution, also when every
//      sample where it broke already had rows (at most max_refinements such rebuilds);
//   3. project the support feet exactly: stability::refit_support_legs (stability/leg_refit.hpp) puts each
//      foot in support back at its planned placement by the analytic leg IK;
//   4. if the ZMP comes closer than `zmp_margin` to the support polygon's edge, run the cart-table
//      stabilizer (stability::stabilize_zmp: a horizontal waist shift, legs re-solved with the feet kept);
//   5. evaluate the result as written (finite differences, ground reaction), which is what is reported,
//      with the geometry in the verdict when there is a collision model (every pair at least the safety
//      distance apart, every sole corner on or above the floor: evaluation/check.hpp).
//
// Failure policy: returns SmoothResult::success == false with `failure` naming the worst problem (an
// infeasible solver result with its worst constraint, or the check's worst violation, or a slip above the
// guarantee) rather than throwing; a feasible solve that stopped before the stationarity tolerance is a
// success (solve.status says how it ended); require_success() throws InfeasibleError with it. Throws
// InputError for a malformed planned motion, InfeasibleError when the projection's leg IK fails (steps 3 and
// 4 run only after a feasible solve: after an infeasible one nothing is written, and their own failures would
// hide the solver's worst row) and, before the solve, for a plan too far outside the limits to smooth
// (non-finite values, an angle 0.1 rad outside its range, a torque above 11 times its limit), BudgetError /
// InputError for a problem above the size budget or with knots finer than the samples
// (motion/problem_budget.hpp). The solves share the time budget of settings.solver (max_seconds).
#pragma once

#include <Eigen/Core>
#include <set>
#include <string>

#include "mimic/core/progress.hpp"
#include "mimic/evaluation/check.hpp"
#include "mimic/evaluation/report.hpp"
#include "mimic/io/motion_files.hpp"
#include "mimic/model/limits.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/motion/geometry_constraints.hpp"
#include "mimic/optim/solve_result.hpp"
#include "mimic/optim/solver.hpp"
#include "mimic/stability/ground_reaction.hpp"
#include "mimic/stability/leg_refit.hpp"
#include "mimic/stability/zmp_stabilizer.hpp"

namespace mimic::pipeline {

// The guarantee on the written motion (issue 8): support feet still to 0.1 mm and 0.01 degree.
inline constexpr double kMaxSlipPosition = 1e-4;              // m
inline constexpr double kMaxSlipAngle = 0.01 * M_PI / 180.0;  // rad

// m added to the safety distance in the smoothing problem: step 3 moves the support legs after the
// solve (by at most 0.43 mrad on the shipped bar walk), which moves a shank or foot by at most that angle
// times the leg's 0.7 m reach, 0.3 mm; without the margin the written walk's shanks came 6 um closer than
// the safety distance that the optimum had kept exactly.
inline constexpr double kProjectionMargin = 5e-4;

struct SmoothSettings {
  model::LimitFactors limits;
  double knot_spacing = 0.1;  // s
  optim::SolverOptions solver;
  int torque_stride = 10;  // samples between torque-limit rows before refinement (0.05 s at 200 Hz)
  // Knot intervals between support-foot equality samples inside a support run (plus every touchdown).
  // One per knot interval gives a support leg as many equalities as its six joint splines have free
  // control points: on long double-support stretches (a planned motion standing in place) the system is
  // then nearly square, conflicts with the pinned ends and the ALM stalls at a violation of 1e-4 (21 s
  // boxing motion: "infeasible" after 5 min; an 8 s cut: 189 s). Every second interval leaves the legs
  // free to lower the torques (the same cut: 5.3 s, 6 iterations; the walking scenario unchanged, -10.1 %).
  // With every run's last sample constrained too and the plan's offset in the legs
  // (motion/smoothing_problem.hpp), the feet stay within 0.078 mm, 0.0013 degree of their placements between
  // the samples before step 3 puts them back exactly (result.projection).
  int support_stride_knots = 2;
  // Seconds between the torque objective's quadrature nodes (issue 15): motion::SmoothingOptions::
  // objective_stride = max(1, round(objective_spacing / dt)) samples, so a coarse planned grid keeps its
  // torques on every sample (50 Hz: stride 1). The constraints stay on their samples, the written motion
  // is judged at every sample. Measured on the bar walk at 200 Hz (bench_smooth, 1 thread, process CPU on
  // the loaded machine; ALM iterations; torque reduction), by stride: 1: 14.3 s, 13, -10.358 %;
  // 2: 11.4 s, 13, -10.357 %; 3: 7.0 s, 13, -10.356 %; 4: 10.0 s, 22, -10.333 %; 5: 7.9 s, 18, -10.310 %;
  // 10: 9.8 s, 26, -10.087 %. A coarser rule leaves the torques between the nodes less constrained: the
  // outer iterations grow. 0 puts the torques on every sample.
  double objective_spacing = 0.015;  // s
  // Samples between the pair distance rows besides the torque samples (motion::SmoothingOptions::
  // pair_stride; issue 15), for the pairs near there along the plan; 0: on the torque samples only. With them
  // on the torque samples (every 50 ms), the torque optimum brings a constrained pair closer than the safety
  // distance between them, and the check adds those samples with torque rows and solves again: the bar walk's
  // shanks at 27 samples, a second solve of 6 ALM iterations, a third of the evaluations. On every sample (1)
  // the bar walk takes 1 solve of 7 iterations (callgrind: -14.7 % instructions, the same -10.3559 %) and
  // walk.bvh's whole body 1 of 11 instead of 2 of 26, and Xsens' whole body 1 solve of 12 instead of 4 of 51
  // (318 instead of 471 s CPU, the same motion within 1 in 1e5 of its torque integral). walk.c3d's whole-body
  // smoothing then stalls at its penalty cap 1.6e-6 outside a swing sole's clearance row (normalised; 1.6e-8
  // m): a stop nearly feasible, which the check at every sample judges (smooth.cpp), like a stop at the
  // iteration cap. The rows cost time too: walk.bvh's whole body takes about 1 s more wall time on 2 threads
  // in its one solve than in its two without them (README); the long walks gain. Since only the pairs near
  // the plan at a sample get its rows there (motion/smoothing_problem.hpp), walk.bvh has 16895 pair rows
  // instead of 29856 (README: the measurements).
  int pair_stride = 1;
  int max_refinements = 3;
  bool stabilize = true;     // run stabilize_zmp when the margin is below zmp_margin
  double zmp_margin = 0.02;  // m
  int stabilizer_iterations = 5;
  double foot_position_weight = 1e5;  // see motion::SmoothingOptions
  double foot_rotation_weight = 6e4;
  // Self-collision, floor and swing-sole tilt (motion/geometry_constraints.hpp); the caller sets
  // `collision` from pipeline::Robot::collision (none: no geometry rows and no geometry check).
  motion::GeometryConstraintOptions geometry;
};

struct SmoothResult {
  model::SampledMotion motion;       // what is written: q, v and a by finite differences, phases
  io::MotionFiles files;             // .pos, .waist, .zmp (ZMP in the waist frame)
  evaluation::Report before, after;  // the planned motion and the written one (evaluation::check_motion)
  double optimized_torque_integral = 0.0;  // of the optimiser's spline (analytic derivatives), before step 3
  optim::SolveResult solve;                // the last solve
  int solves = 0;
  int total_iterations = 0;
  double solver_seconds = 0.0;
  double total_seconds = 0.0;
  int variables = 0, equalities = 0, torque_samples = 0;
  double max_base_shift = 0.0;  // m, horizontal waist displacement from the plan chosen by the optimiser
  stability::SupportRefitReport projection;
  int collision_pairs = 0;        // pairs with distance rows in the last solve
  int added_collision_pairs = 0;  // of which the refinement added (screened out along the plan)
  bool stabilized = false;        // step 4 ran
  // m, the target margin of step 4's motion written: zmp_margin, or a smaller one when that one's motion
  // broke the check (smooth.cpp, kSmallerMarginFractions; 0: the ZMP only brought inside the polygon).
  double stabilization_target = 0.0;
  stability::StabilizationReport stabilization;
  bool success = false;
  std::string failure;
};

// `model`: HRP-2 with any payload already added (model::with_payload). `planned`: the planned motion on a
// uniform grid with its support phases (pipeline::sampled_motion).
SmoothResult smooth_motion(const model::Model& model, const stability::Feet& feet,
                           const model::SampledMotion& planned, const SmoothSettings& settings,
                           const ProgressCallback& progress = {});

// Throws InfeasibleError("smoothing: " + result.failure) unless result.success.
void require_success(const SmoothResult& result);

// Seed 001's active joints are the two legs (each leg's six joints reach its support foot: the support
// rows and the final leg-IK projection need them), so the description's `commands.smooth` must name
// exactly the joints of groups.right_leg and groups.left_leg, in any order; a ModelError at that key
// otherwise, before anything is read.
void check_smooth_joints(const model::RobotDescription& description);

// Sequence files of a smoothed motion: io::motion_files() with the multibody ZMP of the motion
// (stability::motion_zmp) as .zmp.
io::MotionFiles motion_files(const model::Model& model, const stability::Feet& feet,
                             const model::SampledMotion& motion);

}  // namespace mimic::pipeline
