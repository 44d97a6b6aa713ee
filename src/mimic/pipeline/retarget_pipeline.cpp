#include "mimic/pipeline/retarget_pipeline.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <Eigen/Geometry>
#include <cmath>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/core/thread_pool.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/io/csv_motion.hpp"
#include "mimic/io/motion_conversion.hpp"
#include "mimic/mocap/load.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/motion/active_joints.hpp"
#include "mimic/pipeline/imitation_errors.hpp"
#include "mimic/pipeline/job_options.hpp"
#include "mimic/pipeline/motion_optimization.hpp"
#include "mimic/pipeline/read_motion.hpp"
#include "mimic/pipeline/reference_files.hpp"
#include "mimic/pipeline/reference_preparation.hpp"
#include "mimic/pipeline/retarget_mode.hpp"
#include "mimic/pipeline/robot.hpp"
#include "mimic/pipeline/whole_body_retarget.hpp"
#include "mimic/retarget/clip_loop.hpp"
#include "mimic/retarget/landmark_track.hpp"

namespace mimic::pipeline {
namespace {

// The reference with the given joints (nj x N: the optimised ones, or the reference's own).
model::SampledMotion with_joints(const model::Model& model, const retarget::ReferenceMotion& reference,
                                 const Eigen::MatrixXd& joints) {
  model::SampledMotion motion = reference.motion;
  motion.q.bottomRows(model.nj) = joints;
  model::differentiate(model, motion);
  return motion;
}

// The ZMP written to X.zmp (samples x 3, world). A sample without ground support (cannot happen after a
// converged stabilization) gets the ground projection of the waist, which hrpsys can play, rather than NaN.
Eigen::MatrixXd written_zmp(const model::Model& model, const model::SampledMotion& motion,
                            const stability::ZmpTrace& zmp) {
  Eigen::MatrixXd world(motion.size(), 3);
  for (Eigen::Index k = 0; k < motion.size(); ++k) {
    Eigen::Vector3d p = zmp.zmp[static_cast<std::size_t>(k)];
    if (!p.allFinite()) {
      const Eigen::Vector3d waist = model::base_pose(model, motion.q.col(k)).p;
      p = Eigen::Vector3d(waist.x(), waist.y(), 0.0);
    }
    world.row(k) = p.transpose();
  }
  return world;
}

}  // namespace

RetargetPipelineResult run_retarget_pipeline(const io::JobConfig& job, const ProgressCallback& progress) {
  RetargetPipelineResult result;
  StageTimer timer(result.stages);
  // One robot for every stage, carrying the job's payload: the optimisation, the ZMP correction and the
  // check all see the same dynamics.
  const Robot robot = load_robot(job.robot, job.payload);
  // The threads of the per-sample stages after the solve (ZMP correction, check), as many as the solve's
  // own (solver.threads, --threads): their results do not depend on the count.
  core::ThreadPool pool(core::thread_count(job.solver.threads));

  const KinematicRetargetOptions options = kinematic_retarget_options(job);
  const mocap::Clip clip = mocap::load_clip(job.input, options.load);
  // The landmarks once: the mode (pipeline/retarget_mode.hpp) from the clip's contacts read on them, and the
  // kinematic retarget below.
  // A loop is played several times (retarget/clip_loop) and an in-place walk cycle gets its root motion
  // back (retarget/in_place_cycle) first: its contacts, the mode and the kinematic retarget then see a walk
  // that travels.
  const retarget::PlayedClip played =
      retarget::play_clip(retarget::extract_landmarks(clip, options.preset), job.retarget.loop_repeats);
  const retarget::LandmarkTrack& track = played.track;
  const retarget::InPlaceCycle& cycle = played.in_place;
  result.loop = played.play;
  if (result.loop.loop.detected) spdlog::info("{}", result.loop.summary());
  const RetargetModeChoice mode = choose_retarget_mode(track, job);
  const std::string cycle_note =
      cycle.detected
          ? fmt::format("; in-place cycle: root motion recovered from the stance feet, travel {:.3f} m",
                        cycle.travel)
          : std::string();
  result.mode_reason = mode.reason + cycle_note;
  spdlog::info("mode: {}", result.mode_reason);
  timer.done("load");

  result.kinematic = kinematic_retarget(track, robot.model, robot.description, options, progress);
  prepare_reference(robot, result.kinematic.reference, job.trajectory.knot_spacing);
  result.reference_files = reference_files(robot.model, result.kinematic);
  timer.done("kinematic retarget");
  if (mode.whole_body) {
    if (!mode.auto_chosen) {
      run_whole_body_stages(job, robot, *mode.contacts, result, timer, progress);
      return result;
    }
    // Auto chose the walk: when the robot cannot walk this clip (a stage of the walk ends infeasible), the
    // upper body on planted feet is still an executable motion, as seed 000 made it; say loudly that the
    // robot will not walk and why. Bad input (InputError) is not retried: it would fail the same way.
    const RetargetPipelineResult before_walk = result;
    try {
      run_whole_body_stages(job, robot, *mode.contacts, result, timer, progress);
      return result;
    } catch (const WholeBodyStageError& e) {
      double attempt = 0.0;  // the walk's stages, kept as one
      for (std::size_t i = before_walk.stages.size(); i < result.stages.size(); ++i)
        attempt += result.stages[i].seconds;
      result = before_walk;
      timer.done("whole-body attempt");
      result.stages.back().seconds += attempt;
      result.whole_body_failure = RetargetPipelineResult::WholeBodyFailure{e.stage(), e.reason()};
      const std::string failure =
          fmt::format("the whole-body retarget failed at its {}: {}", e.stage(), e.reason());
      result.mode_reason =
          fmt::format("upper body: {}; the clip walks: {}{}", failure, mode.evidence, cycle_note);
      spdlog::warn(
          "{}: {}; retargeting the upper body on planted feet instead, so the robot will not walk; "
          "--whole-body makes this failure an error",
          job.input.string(), failure);
    }
  }
  const retarget::ReferenceMotion& reference = result.kinematic.reference;

  Eigen::MatrixXd joints = reference.motion.q.bottomRows(robot.model.nj);
  if (!job.retarget.kinematic_only) {
    // The B-spline needs two knot intervals between its pinned ends.
    if (reference.duration() < 2.0 * job.trajectory.knot_spacing) {
      throw InputError(
          fmt::format("{}: the clip lasts {:.3f} s after re-timing ({} frame(s)); the optimisation needs at "
                      "least two knot "
                      "intervals (2 x trajectory.knot_spacing = {:.3f} s): use --kinematic-only or a smaller "
                      "--knot-spacing",
                      job.input.string(), reference.duration(), result.kinematic.source_frames,
                      2.0 * job.trajectory.knot_spacing));
    }
    const OptimizedUpperBody optimized = optimize_upper_body(robot, job, reference, progress);
    joints = optimized.joints;
    result.optimized = true;
    result.solver = optim::to_string(job.solver.name);
    result.solver_status = optimized.status;
    result.solver_iterations = optimized.iterations;
    result.objective = optimized.objective;
    result.optimized_torque_integral = optimized.torque_integral;
    timer.done("optimization");
  }

  model::SampledMotion motion = with_joints(robot.model, reference, joints);
  stability::ZmpTrace zmp;
  if (job.stability.enabled && !job.retarget.kinematic_only) {
    stability::StabilizerOptions stab = stabilizer_options(job);
    stab.progress = progress;
    auto stabilized = stability::stabilize_zmp(robot.model, robot.feet, motion, stab, &pool);
    result.stabilized = true;
    result.stabilization = stabilized.report;
    if (stabilized.report.converged) {
      spdlog::info("ZMP: {}", stabilized.report.summary());
    } else {
      // The written motion must still pass the check below (ZMP inside the polygon), but not by the margin.
      spdlog::warn("ZMP correction did not reach the {:.3f} m margin: {}", stab.margin,
                   stabilized.report.summary());
    }
    motion = std::move(stabilized.motion);
    zmp = std::move(stabilized.zmp);
    timer.done("zmp stabilization");
  } else {
    zmp = stability::motion_zmp(robot.model, robot.feet, motion, &pool);
  }

  result.output = io::motion_files(robot.model, motion, written_zmp(robot.model, motion, zmp));
  if (io::is_csv_motion(job.output.path)) {
    result.csv = csv_output(robot.model, robot.description.joint_order, motion, job.csv_rate,
                            job.output.path.string());
  }
  // The summary is measured on the motion as written and read back, exactly as `mimic check` sees it.
  const auto written = sampled_motion(robot.model, robot.feet, result.output);
  // The written motion must keep the ZMP inside the support polygon; the margin is what the correction
  // aims at, and missing it is a warning above, not a failure.
  evaluation::CheckOptions check = check_options(job);
  check.zmp_margin = 0.0;
  check.collision = robot.collision;
  result.check = evaluation::check_motion(robot.model, robot.feet, written, check, &pool);
  result.check.imitation = imitation_errors(robot, reference, motion);
  timer.done("check");
  if (!job.retarget.kinematic_only && !result.check.ok()) {
    throw InfeasibleError(fmt::format("{}: the optimised motion still violates a limit: {}; nothing written",
                                      job.input.string(),
                                      evaluation::describe(result.check.violations.front())));
  }
  if (!result.check.ok())
    spdlog::warn("the kinematic baseline violates {} limit(s): it ignores torques and the ZMP",
                 result.check.violations.size());
  return result;
}

void write_retarget_outputs(const io::JobConfig& job, const RetargetPipelineResult& result) {
  if (result.csv) return write_csv_output(job.output.path, *result.csv);
  const io::PosLayout& layout = result.kinematic.pos_layout;
  io::write_motion(io::motion_base(job.output.path), result.output, io::pos_write_options(job, layout),
                   layout);
}

}  // namespace mimic::pipeline
