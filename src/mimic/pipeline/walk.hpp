// The `mimic walk` stage: a walk job -> its footsteps and upper body -> the walking pattern (Kajita's preview
// control of the cart-table, leg refit; walking/walking_pattern.hpp) -> the checks a playable motion must
// pass -> X.pos, X.waist, X.zmp and the JSON report. Files are read and written here; walking/ gets data.
#pragma once

#include <filesystem>
#include <functional>
#include <span>

#include "mimic/evaluation/geometry_check.hpp"
#include "mimic/io/job.hpp"
#include "mimic/io/motion_files.hpp"
#include "mimic/pipeline/robot.hpp"
#include "mimic/walking/walking_evaluation.hpp"
#include "mimic/walking/walking_pattern.hpp"

namespace mimic::pipeline {

struct WalkResult {
  Robot robot;  // as it walks: with the job's payload
  walking::WalkingPattern pattern;
  walking::WalkingSummary summary;
  // Closest pair of collision shapes and lowest sole corner (job's geometry.safety_distance), for the
  // summary and the report.
  evaluation::GeometryReport geometry;
};

// Called with the pattern and its summary before the limits are checked, so that a walk that is then
// refused can still be shown (the CLI prints its summary).
using WalkObserver = std::function<void(const WalkResult&)>;

// Runs the walk job (job.job must be walk; the walking options are pipeline::walking_options(job)). The
// upper body is `upper_body` when not empty, else the footstep file's `upper_body:`, else half-sitting.
// Throws InputError / ModelError for bad inputs and InfeasibleError when the motion breaks
// limits.velocity_factor, limits.angle_factor or leaves the support polygon (a ZMP margin below
// stability.zmp_margin is only a warning).
WalkResult run_walk(const io::JobConfig& job, const std::filesystem::path& upper_body = {},
                    const WalkObserver& observe = {});

// The upper body from a file: a .pos (its joint columns in model order, resampled) or a keyframe .yaml /
// .yml (walking::load_upper_body_keyframes). `posture` and `leg_joints` as the keyframes take them; a .pos
// is read in `layout` (the robot's .pos columns).
walking::UpperBodyTrajectory load_upper_body(const std::filesystem::path& path, const model::Model& model,
                                             const Eigen::VectorXd& posture, std::span<const int> leg_joints,
                                             const io::PosLayout& layout = io::default_pos_layout());

// The report (pipeline/reports.hpp; first, so that an unwritable report path fails before any motion file
// exists) and the motion files at job.output (or the .csv, csv_motion.hpp, at the job's csv_rate); all or
// none.
void write_walk_outputs(const io::JobConfig& job, const WalkResult& walk);

}  // namespace mimic::pipeline
