// The kinematic reference of seed 000 (eq. (1)-(2)): the robot's joint angles q_c(t) and the head and hand
// positions P_c(t) in the waist frame, retargeted frame by frame from a landmark track; then slowed by
// Algorithm 1 where the robot's joints could not follow, and resampled at the controller's rate.
#pragma once

#include <Eigen/Core>

#include "mimic/core/progress.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/retarget/landmark_track.hpp"
#include "mimic/retarget/time_reparameterization.hpp"
#include "mimic/retarget/upper_body_ik.hpp"

namespace mimic::retarget {

struct RetargetOptions {
  // Human-to-robot length ratio (robot / human). 0: the robot's arm length over the human's (median
  // over the clip of shoulder-elbow + elbow-wrist), or with scale_from_height the robot's standing height
  // over the human's (UpperBodyIk::standing_height, human_height). It scales the hands' reach and the
  // pelvis height motion.
  double scale = 0.0;
  // The height ratio keeps the actor's posture proportions relative to the whole body when the arm length
  // is a poor measure (wrists badly placed by the preset or the markers); it needs an ankle landmark.
  bool scale_from_height = false;
  UpperBodyIkOptions ik;
  // The first frame starts from the rest pose, possibly far from the answer: it gets more iterations.
  int first_frame_iterations = 300;
};

// Uniformly sampled at `rate`: motion.times[k] = k / rate.
struct ReferenceMotion {
  double rate = 0.0;  // samples per second
  // q (nq x N): the waist pose in the world as the free-flyer base and q_c in the model's joint order;
  // v, a from model::differentiate (refreshed by every function that changes q); phases all double support
  // (seed 000 imitates the upper body with both feet on the ground).
  model::SampledMotion motion;
  // 9 x N: P_c = [head; right hand; left hand] of the actor scaled to the robot, in the waist frame
  // (UpperBodyIk::actor_end_effectors).
  Eigen::MatrixXd end_effectors;

  int sample_count() const { return static_cast<int>(motion.size()); }
  double duration() const { return sample_count() > 1 ? (sample_count() - 1) / rate : 0.0; }
};

// A reference from its configurations (nq x N) at `rate` and its end-effector targets (9 x N): the times
// k / rate, double support throughout, v and a by model::differentiate.
ReferenceMotion make_reference(const model::Model& model, double rate, Eigen::MatrixXd q,
                               Eigen::MatrixXd end_effectors);

struct RetargetReport {
  double scale = 0.0;             // the human-to-robot length ratio used
  double human_arm_length = 0.0;  // m
  double human_height = 0.0;      // m (human_height()); measured only for scale_from_height
  int total_iterations = 0;
  int unconverged_frames = 0;  // frames whose IK stopped at the iteration cap (still within limits)
  double mean_cost = 0.0;      // mean IK cost per frame
};

// Retargets every frame of `track` with the upper-body IK over `description`'s retarget joints (`model` in
// the description's joint order). `rest` (size model.nq, free-flyer) gives the other joints and the waist
// height (the nominal pose: description.nominal_q(model)) and warm-starts the first frame. The waist
// stays upright at the rest x, y; its height follows the pelvis height relative to frame 0, times the
// scale. Reports progress every 500 frames.
ReferenceMotion retarget_motion(const LandmarkTrack& track, const model::Model& model,
                                const model::RobotDescription& description, const Eigen::VectorXd& rest,
                                const RetargetOptions& options = {}, RetargetReport* report = nullptr,
                                const ProgressCallback& progress = {});

struct RetimedReference {
  ReferenceMotion motion;  // at the uniform output rate
  RetimedSamples timing;   // Algorithm 1's result on the source samples (slow-down factor, ...)
};

// Algorithm 1 on the joint angles with the limits velocity_scale * velocity_limit (size nj), then the
// configurations (resample_configurations: the waist's orientation along the geodesic) and P_c resampled
// at `output_rate` by linear interpolation of the re-timed samples.
RetimedReference reparameterize(const model::Model& model, const ReferenceMotion& motion,
                                const Eigen::VectorXd& velocity_limit, double velocity_scale = 1.0,
                                double output_rate = 200.0);

// The second half of reparameterize: `motion` resampled at `output_rate` along `timing`, Algorithm 1's
// result on it (reparameterize_time), for a caller that checks the timing before the resampling allocates.
RetimedReference resample_reference(const model::Model& model, const ReferenceMotion& motion,
                                    RetimedSamples timing, double output_rate);

}  // namespace mimic::retarget
