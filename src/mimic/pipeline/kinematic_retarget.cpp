#include "mimic/pipeline/kinematic_retarget.hpp"

#include <cmath>
#include <sstream>

#include "mimic/core/error.hpp"
#include "mimic/pipeline/sample_budget.hpp"
#include "mimic/retarget/landmark_track.hpp"
#include "mimic/retarget/reference_zmp.hpp"
#include "mimic/retarget/time_reparameterization.hpp"

namespace mimic::pipeline {

namespace {

void check_options(const KinematicRetargetOptions& o) {
  if (!(o.velocity_scale > 0.0 && o.velocity_scale <= 1.0)) {
    throw InputError(input_error_message(
        "--velocity-scale", "", "expected a value in (0, 1], got " + std::to_string(o.velocity_scale)));
  }
  if (!(o.output_rate > 0.0)) {
    throw InputError(input_error_message("output rate", "",
                                         "expected a positive rate, got " + std::to_string(o.output_rate)));
  }
  if (o.retarget.scale < 0.0 || !std::isfinite(o.retarget.scale)) {
    throw InputError(input_error_message(
        "--scale", "",
        "expected a positive scale (or 0 for automatic), got " + std::to_string(o.retarget.scale)));
  }
}

KinematicRetargetResult retarget_track(const retarget::LandmarkTrack& track, const model::Model& model,
                                       const model::RobotDescription& description,
                                       const Eigen::VectorXd& rest, const KinematicRetargetOptions& options,
                                       const ProgressCallback& progress) {
  check_options(options);
  KinematicRetargetResult result;
  result.clip = track.source;
  result.preset = track.preset;
  result.source_frames = track.frame_count();
  result.source_rate = track.rate;
  if (!(track.rate > 0.0))
    throw InputError(input_error_message(result.clip, "", "the clip has no frame rate"));

  const retarget::ReferenceMotion motion = retarget::retarget_motion(
      track, model, description, rest, options.retarget, &result.retarget, progress);
  // Algorithm 1's timing costs a number per frame; the resampling at the output rate allocates the
  // re-timed duration's samples, so it is budgeted in between (a velocity scale of 1e-6 slows a clip down a
  // millionfold).
  retarget::RetimedSamples timing = retarget::reparameterize_time(
      motion.motion.q.bottomRows(model.nj), motion.rate, model.velocity_limit, options.velocity_scale);
  if (description.retiming_torque_scale > 0.0) {
    result.torque_retiming =
        retarget::limit_torques(model, motion.motion.q, description.retiming_torque_scale, timing);
  }
  check_sample_budget(result.clip + ": the re-timed reference", timing.duration(), options.output_rate,
                      "trajectory.output_rate, retarget.velocity_limit_scale");
  retarget::RetimedReference retimed =
      retarget::resample_reference(model, motion, std::move(timing), options.output_rate);
  result.timing = std::move(retimed.timing);
  result.reference = std::move(retimed.motion);
  result.velocity_scale = options.velocity_scale;
  result.torque_scale = description.retiming_torque_scale;
  result.zmp = retarget::reference_zmp(model, result.reference, &result.zmp_fallback_samples);
  result.pos_layout = io::PosLayout::of(description);

  // Forward differences: each is an average of the re-timed slopes Algorithm 1 bounded
  // (time_reparameterization.hpp), so the peak shows the bound held on the output grid.
  const model::SampledMotion& m = result.reference.motion;
  for (Eigen::Index k = 0; k + 1 < m.size(); ++k) {
    for (int j = 0; j < model.nj; ++j) {
      const double v = (m.q(model.idx_q(j), k + 1) - m.q(model.idx_q(j), k)) * options.output_rate;
      result.peak_velocity.raise(std::abs(v) / model.velocity_limit[j], v, model.velocity_limit[j],
                                 model.joint_names[static_cast<std::size_t>(j)],
                                 m.times[static_cast<std::size_t>(k)]);
    }
  }
  return result;
}

}  // namespace

KinematicRetargetResult kinematic_retarget(const mocap::Clip& clip, const model::Robot& robot,
                                           const KinematicRetargetOptions& options,
                                           const ProgressCallback& progress) {
  return kinematic_retarget(clip, robot.model, robot.description, options, progress);
}

KinematicRetargetResult kinematic_retarget(const mocap::Clip& clip, const model::Model& model,
                                           const model::RobotDescription& description,
                                           const KinematicRetargetOptions& options,
                                           const ProgressCallback& progress) {
  check_options(options);
  return kinematic_retarget(retarget::extract_landmarks(clip, options.preset), model, description, options,
                            progress);
}

KinematicRetargetResult kinematic_retarget(const retarget::LandmarkTrack& track, const model::Model& model,
                                           const model::RobotDescription& description,
                                           const KinematicRetargetOptions& options,
                                           const ProgressCallback& progress) {
  return retarget_track(track, model, description, description.nominal_q(model), options, progress);
}

KinematicRetargetResult kinematic_retarget(const std::filesystem::path& clip_path,
                                           const KinematicRetargetOptions& options,
                                           const ProgressCallback& progress) {
  check_options(options);
  const model::Robot robot = model::load_robot(
      options.robot_config.empty() ? model::default_robot_description_path() : options.robot_config.string(),
      std::nullopt, options.model.string());
  const mocap::Clip clip = mocap::load_clip(clip_path, options.load);
  return kinematic_retarget(clip, robot, options, progress);
}

std::string format_summary(const KinematicRetargetResult& r, bool with_zmp) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(3);
  out << r.clip << " (preset " << r.preset << "): " << r.source_frames << " frames at " << r.source_rate
      << " Hz\n";
  out << "  human-to-robot scale " << r.retarget.scale << " (human arm " << r.retarget.human_arm_length
      << " m); IK " << static_cast<double>(r.retarget.total_iterations) / std::max(1, r.source_frames)
      << " iterations/frame, mean cost " << r.retarget.mean_cost << "\n";
  out << "  duration " << r.timing.source_duration() << " s -> " << r.timing.duration()
      << " s after re-timing (slow-down x" << r.timing.slow_down() << ", velocity limits x"
      << r.velocity_scale;
  if (r.torque_retiming.passes > 0)
    out << "; torque limits x" << r.torque_scale << ": the reference asked "
        << r.torque_retiming.peak_ratio_before << " of the room left by gravity ("
        << r.torque_retiming.peak_joint << "), " << r.torque_retiming.peak_ratio << " after "
        << r.torque_retiming.passes << " passes";
  out << ")\n";
  out << "  output " << r.reference.sample_count() << " samples at " << r.reference.rate
      << " Hz; peak |qdot|/limit " << r.peak_velocity.ratio;
  if (!r.peak_velocity.joint.empty()) out << " (" << r.peak_velocity.joint << ")";
  out << "\n";
  if (!with_zmp) return out.str();
  out << "  ZMP: multibody, finite differences of the 200 Hz reference, legs at half-sitting";
  if (r.zmp_fallback_samples > 0)
    out << " (" << r.zmp_fallback_samples << " samples without support: CoM projection)";
  out << "\n";
  return out.str();
}

}  // namespace mimic::pipeline
