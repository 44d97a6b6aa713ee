// The upper body of a whole-body walk optimised on the walk (pipeline/whole_body_retarget.hpp, step 3b;
// issue 14): seed 000's retarget problem (motion/motion_problem.hpp, solved by motion/optimize_motion.hpp
// with the back end, tolerances, knots and limits the `retarget` command uses, pipeline/job_options.hpp
// motion_settings) with the walking pattern as the given motion:
//   - the base motion is the pattern's waist, the legs are the pattern's (passive joints, with their
//     rates): the torque rows of the torso, neck and arm joints see the walking waist's accelerations, and
//     the pair rows see the swinging thighs;
//   - the imitated joints are the torso, neck and arms (the description's commands.retarget), their targets
//     the upper body the pattern carries (the kinematic reference on the plan's clock through the 1 Hz
//     smoothing fit, pipeline/whole_body_upper_body.hpp: the fit stays as the filter of the per-frame IK's
//     noise, which the legs cannot carry); the imitated frames' targets (gaze, grippers in the waist frame)
//     are the reference's own, P_c, on the same clock (linear between its samples);
//   - joint, velocity and torque limits, and the self-collision rows of every pair the active joints can
//     move apart that comes near on the walk (a hand against a swinging thigh): the arms clear the legs by
//     construction.
// The ends are pinned (at rest) to the fit's ends, as seed 000 pins them to the reference's.
#pragma once

#include <Eigen/Core>

#include "mimic/core/progress.hpp"
#include "mimic/io/job.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/pipeline/clip_footstep_plan.hpp"
#include "mimic/pipeline/robot.hpp"
#include "mimic/pipeline/whole_body_report.hpp"
#include "mimic/retarget/reference_motion.hpp"

namespace mimic::pipeline {

struct WalkUpperBodySolve {
  Eigen::MatrixXd joints;  // nj x N at the walk's samples, model order: the legs and hands the walk's
  UpperBodySolveReport report;
  bool success = false;
  std::string failure;  // empty on success: the worst violated row (motion::MotionResult::failure)
};

// `walk` is the walking pattern's motion (uniform samples every `period` s from t = 0, q, v, a filled);
// `planned` maps its clock to the reference's (ClipFootstepPlan::robot_time_at). Throws what
// motion::optimize_motion throws (InfeasibleError for pinned ends that no motion can clear).
WalkUpperBodySolve solve_walk_upper_body(const Robot& robot, const io::JobConfig& job,
                                         const retarget::ReferenceMotion& reference,
                                         const ClipFootstepPlan& planned, const model::SampledMotion& walk,
                                         double period, const ProgressCallback& progress = {});

// The reference's end-effector targets P_c (9 x N) at the walk's times: each walk time mapped to the
// reference's clock by `planned`, linear between the reference's samples, held at its first / last sample
// outside it (the walk's first transfer and final stand).
Eigen::MatrixXd end_effector_targets_on_walk(const retarget::ReferenceMotion& reference,
                                             const ClipFootstepPlan& planned,
                                             const std::vector<double>& walk_times);

}  // namespace mimic::pipeline
