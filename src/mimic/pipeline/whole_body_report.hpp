// The numbers of a whole-body retarget (pipeline/whole_body_retarget.hpp) for the summary and the JSON
// report (pipeline/reports.hpp): travel, steps, timing, foot placement against the human's footsteps.
#pragma once

#include <string>
#include <vector>

#include "mimic/model/contact_phase.hpp"

namespace mimic::pipeline {

// What the upper body of the walk cost against the reference (pipeline/whole_body_upper_body.hpp; on the
// walk's grid, upper-body joints).
struct WalkUpperBodyReport {
  double cutoff = 0.0;           // Hz, of the smoothing fit
  double rms_change = 0.0;       // rad, the fit against the reference's samples
  double max_change = 0.0;       // rad
  std::string max_change_joint;  // the joint of max_change
  double peak_acceleration_before = 0.0, peak_acceleration_after = 0.0;  // rad/s^2, second differences
  std::string peak_joint_before, peak_joint_after;
};

// The upper body's solve on the walk (pipeline/whole_body_upper_body_solve.hpp): seed 000's problem with
// the pattern's waist and legs given.
struct UpperBodySolveReport {
  int solves = 0;               // 1 + refinements (torque samples or pairs added)
  int iterations = 0;           // over every solve
  double solver_seconds = 0.0;  // wall time in the solver
  double cpu_seconds = 0.0;     // process CPU time of the whole step (screening, clearance, solves)
  int torque_samples = 0;       // samples with torque and pair rows in the last solve
  int collision_pairs = 0;      // pairs with rows in the last solve
  // Imitation of the torso, neck and arms against the kinematic reference on the walk's clock
  // (pipeline/imitation_errors.hpp): the fit's (the pattern's upper body) and the solve's.
  double joint_rmse_fit = 0.0, joint_rmse = 0.0;      // rad
  double position_rms_fit = 0.0, position_rms = 0.0;  // m, gaze and grippers in the waist frame
  double peak_torque = 0.0;                           // |tau| / limit, active joints, the solution
  std::string peak_torque_joint;
  double min_distance = 0.0;  // m, closest pair the active joints move, the solution (pattern's legs)
  std::string closest_pair;
  int deep_runs = 0;       // runs of deep self-collision cleared before the solve (reference_clearance)
  double end_shift = 0.0;  // rad, pinned ends moved out of the safety distance
};

// What the whole-body retarget adds to the summary and the report (RetargetPipelineResult::whole_body).
struct WholeBodyReport {
  // Net displacement (start to end) of the human's pelvis on the floor, of the same times the scale, and of
  // the written motion's waist, m.
  double human_travel = 0.0, scaled_travel = 0.0, robot_travel = 0.0;
  int detected_steps = 0;  // steps read from the clip
  int planned_steps = 0;   // steps of the footstep plan
  int steps_taken = 0;     // single-support runs of the written motion
  // Touchdowns on the written motion's clock (s) and the steps per minute between the first and the last;
  // the clip's own cadence for comparison.
  double first_touchdown = 0.0, last_touchdown = 0.0, cadence = 0.0, clip_cadence = 0.0;
  // Where each stepping sole frame stands in the written motion just after its touchdown against the
  // scaled human footstep, m.
  double placement_rms = 0.0, placement_max = 0.0;
  int clamped_steps = 0;
  std::vector<std::string> clamps;  // the first few adjustment messages, "step N (foot): ..."
  double time_stretch = 1.0;        // slow-down of the plan while walking, beyond the re-timing (>= 1)
  double duration = 0.0;            // s, of the written motion
  std::vector<model::ContactInterval> contacts;  // the written motion's support phases, as a job's contacts:
  WalkUpperBodyReport upper_body;
  UpperBodySolveReport upper_body_solve;
  // Seed 001's smoothing.
  double torque_before = 0.0, torque_after = 0.0;  // integral of tau^T tau over the pattern / the result
  int solves = 0;
};

}  // namespace mimic::pipeline
