// The full `mimic retarget` pipeline of seed 000: landmarks -> kinematic retarget -> time
// re-parameterization (Algorithm 1) -> B-spline optimisation of the upper body (imitation or torque
// objective, joint angle / velocity / torque limits) -> ZMP / cart-table correction with leg IK -> X.pos,
// X.waist, X.zmp, and a summary measured on what is written (the `mimic check` numbers).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "mimic/core/progress.hpp"
#include "mimic/evaluation/check.hpp"
#include "mimic/evaluation/report.hpp"
#include "mimic/io/job.hpp"
#include "mimic/io/motion_files.hpp"
#include "mimic/pipeline/csv_motion.hpp"
#include "mimic/pipeline/kinematic_retarget.hpp"
#include "mimic/pipeline/reference_files.hpp"
#include "mimic/pipeline/stage_timer.hpp"
#include "mimic/pipeline/whole_body_report.hpp"
#include "mimic/retarget/clip_loop.hpp"
#include "mimic/stability/zmp_stabilizer.hpp"

namespace mimic::pipeline {

struct RetargetPipelineResult {
  // The mode chosen (pipeline/retarget_mode.hpp) and why; whole_body holds the walk's numbers.
  std::string mode_reason;
  std::optional<WholeBodyReport> whole_body;
  // Where and why the whole-body retarget that auto chose failed, when it fell back to the upper body.
  struct WholeBodyFailure {
    std::string stage;   // "smoothing (seed 001)"
    std::string reason;  // "check of the smoothed motion: collision of ..."
  };
  std::optional<WholeBodyFailure> whole_body_failure;
  // How a looping clip was played (retarget/clip_loop.hpp); loop.loop.detected is false for other clips.
  retarget::LoopPlay loop;
  KinematicRetargetResult kinematic;  // the reference (and the --kinematic-only motion)
  ReferenceFiles reference_files;     // X.reference.* and X.original.* (--save-reference), as prepared
  bool optimized = false;
  std::string solver;         // "alm" / "ipopt" when optimized
  std::string solver_status;  // e.g. "converged (stationarity)"
  int solver_iterations = 0;
  double objective = 0.0;
  // Integral of tau^T tau of the imitating joints on the optimised motion before the ZMP correction (what
  // the torque and blended objectives weigh), N^2 m^2 s; 0 without optimisation.
  double optimized_torque_integral = 0.0;
  bool stabilized = false;
  stability::StabilizationReport stabilization;
  io::MotionFiles output;        // what is written (a .pos output)
  std::optional<CsvOutput> csv;  // what is written instead for a .csv output (job.output.path)
  // The written motion checked against the robot (limits, ZMP, slip, geometry), with its imitation errors
  // (output joints against the re-timed reference, head / hands in the waist frame against P_c).
  evaluation::Report check;
  std::vector<StageTime> stages;
};

// Runs the job (job.job must be retarget). Throws InputError / ModelError for bad inputs and
// InfeasibleError when the result violates a limit (the worst offender named).
RetargetPipelineResult run_retarget_pipeline(const io::JobConfig& job, const ProgressCallback& progress = {});

// X.pos / X.waist / X.zmp of the result, all or none, or X.csv.
void write_retarget_outputs(const io::JobConfig& job, const RetargetPipelineResult& result);

// The summary and the JSON report: pipeline/reports.hpp.

}  // namespace mimic::pipeline
