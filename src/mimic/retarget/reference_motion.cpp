#include "mimic/retarget/reference_motion.hpp"

#include <cmath>
#include <utility>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/model/base_pose.hpp"

namespace mimic::retarget {

ReferenceMotion retarget_motion(const LandmarkTrack& track, const model::Model& model,
                                const model::RobotDescription& description, const Eigen::VectorXd& rest,
                                const RetargetOptions& options, RetargetReport* report,
                                const ProgressCallback& progress) {
  if (rest.size() != model.nq) {
    throw std::invalid_argument("retarget_motion: rest configuration of size " + std::to_string(rest.size()) +
                                ", the model has nq = " + std::to_string(model.nq));
  }
  if (track.frames.empty()) throw InputError(input_error_message(track.source, "", "the clip has no frames"));
  UpperBodyIk ik(model, description, options.ik);

  RetargetReport local;
  RetargetReport& r = report ? *report : local;
  r = RetargetReport{};
  r.human_arm_length = human_arm_length(track);
  if (options.scale > 0.0) {
    r.scale = options.scale;
  } else if (options.scale_from_height) {
    if (!track.has(Landmark::kRightAnkle) && !track.has(Landmark::kLeftAnkle)) {
      throw InputError(input_error_message(track.source, "",
                                           "cannot measure the height: the preset '" + track.preset +
                                               "' gives no ankle; use the arm-length scale (auto) or a "
                                               "number"));
    }
    r.human_height = human_height(track);
    if (!(r.human_height > 1e-3)) {
      throw InputError(input_error_message(track.source, "",
                                           "cannot measure the height (the head is not above the ankles): "
                                           "give the scale explicitly"));
    }
    r.scale = ik.standing_height() / r.human_height;
  } else if (r.human_arm_length > 1e-3) {
    r.scale = ik.arm_length() / r.human_arm_length;
  } else {
    throw InputError(input_error_message(track.source, "",
                                         "cannot measure the arm length (shoulder, elbow and wrist "
                                         "coincide): give the scale explicitly"));
  }

  const int n = track.frame_count();
  Eigen::MatrixXd q(model.nq, n), end_effectors(9, n);

  const Eigen::Vector3d rest_waist = model::base_pose(model, rest).p;  // zero for a fixed base
  const double pelvis_height0 = track.frames[0][Landmark::kPelvis].z();
  Eigen::VectorXd joints = rest.tail(model.nj);
  double total_cost = 0.0;
  for (int f = 0; f < n; ++f) {
    const LandmarkFrame& frame = track.frames[static_cast<std::size_t>(f)];
    const UpperBodyTargets targets = upper_body_targets(track, frame, r.scale, ik.gripper_length());
    const IkResult result = f == 0 ? ik.solve_from_scratch(targets, joints, options.first_frame_iterations)
                                   : ik.solve(targets, joints, 1.0 / track.rate);
    r.total_iterations += result.iterations;
    if (!result.converged) ++r.unconverged_frames;
    total_cost += result.cost;

    // Upright, at the rest x, y.
    const Eigen::Vector3d waist(rest_waist.x(), rest_waist.y(),
                                rest_waist.z() + r.scale * (frame[Landmark::kPelvis].z() - pelvis_height0));
    q.col(f) = model::configuration(model, spatial::SE3(Eigen::Matrix3d::Identity(), waist), joints);
    end_effectors.col(f) = ik.actor_end_effectors(targets, joints);
    if (progress && (f % 500 == 0 || f + 1 == n)) {
      ProgressEvent e;
      e.stage = "retarget";
      e.iteration = f + 1;
      e.total = n;
      e.objective = result.cost;
      progress(e);
    }
  }
  r.mean_cost = total_cost / n;
  return make_reference(model, track.rate, std::move(q), std::move(end_effectors));
}

ReferenceMotion make_reference(const model::Model& model, double rate, Eigen::MatrixXd q,
                               Eigen::MatrixXd end_effectors) {
  if (q.rows() != model.nq || end_effectors.rows() != 9 || end_effectors.cols() != q.cols()) {
    throw std::invalid_argument("make_reference: expected nq x N configurations and 9 x N end effectors");
  }
  ReferenceMotion out;
  out.rate = rate;
  const Eigen::Index n = q.cols();
  out.motion.times.resize(static_cast<std::size_t>(n));
  for (Eigen::Index k = 0; k < n; ++k)
    out.motion.times[static_cast<std::size_t>(k)] = static_cast<double>(k) / rate;
  out.motion.q = std::move(q);
  out.motion.phases.assign(static_cast<std::size_t>(n), model::ContactPhase::kDoubleSupport);
  model::differentiate(model, out.motion);
  out.end_effectors = std::move(end_effectors);
  return out;
}

RetimedReference reparameterize(const model::Model& model, const ReferenceMotion& motion,
                                const Eigen::VectorXd& velocity_limit, double velocity_scale,
                                double output_rate) {
  return resample_reference(
      model, motion,
      reparameterize_time(motion.motion.q.bottomRows(model.nj), motion.rate, velocity_limit, velocity_scale),
      output_rate);
}

RetimedReference resample_reference(const model::Model& model, const ReferenceMotion& motion,
                                    RetimedSamples timing, double output_rate) {
  RetimedReference out;
  out.timing = std::move(timing);
  out.motion = make_reference(model, output_rate,
                              resample_configurations(model, motion.motion.q, out.timing.times, output_rate),
                              resample_uniform(motion.end_effectors, out.timing.times, output_rate));
  return out;
}

}  // namespace mimic::retarget
