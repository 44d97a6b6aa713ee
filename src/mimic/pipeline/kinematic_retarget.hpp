// The kinematic retargeting baseline (`mimic retarget --kinematic-only`): clip -> landmarks -> per-frame
// upper-body IK -> Algorithm 1 re-timing (and, for a robot whose description sets retiming.torque_scale,
// the torque re-timing of retarget/torque_retiming.hpp) -> 200 Hz reference, with its ZMP, ready to be
// written as OpenHRP X.pos / X.waist / X.zmp. No dynamics are optimised: this is both a usable motion for
// slow clips and the comparison point (and initial guess) of the optimised pipeline.
#pragma once

#include <filesystem>
#include <string>

#include "mimic/core/progress.hpp"
#include "mimic/evaluation/peak.hpp"
#include "mimic/io/motion_files.hpp"
#include "mimic/mocap/load.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot.hpp"
#include "mimic/retarget/landmark_track.hpp"
#include "mimic/retarget/reference_motion.hpp"
#include "mimic/retarget/torque_retiming.hpp"

namespace mimic::pipeline {

struct KinematicRetargetOptions {
  std::string preset;                  // landmark preset: shipped name or YAML file; empty: recognise
  mocap::LoadOptions load;             // units / up axis of the clip
  retarget::RetargetOptions retarget;  // scale (0: from arm lengths), IK settings
  double velocity_scale = 0.9;         // Algorithm 1 enforces velocity_scale * the velocity limits
  double output_rate = 200.0;          // Hz: HRP-2's controller period is 5 ms (reference section 6)
  std::filesystem::path model;         // robot URDF; empty: the robot configuration's
  std::filesystem::path robot_config;  // empty: config/robots/hrp2.yaml of the source tree
};

struct KinematicRetargetResult {
  std::string clip;  // input file
  std::string preset;
  int source_frames = 0;
  double source_rate = 0.0;
  retarget::RetargetReport retarget;
  retarget::RetimedSamples timing;           // Algorithm 1 on the source samples (slow-down factor), then the
                                             // torque re-timing when the description asks for it
  retarget::TorqueRetiming torque_retiming;  // passes 0 and ratios 0 when the description does not ask
  retarget::ReferenceMotion reference;       // q_c, P_c and waist pose at the output rate
  Eigen::MatrixXd zmp;                       // 3 x output samples: multibody ZMP in the world
  int zmp_fallback_samples = 0;  // samples without ground support (ZMP replaced by the CoM projection)
  // Over output samples and joints, |qdot| / velocity limit with qdot the forward difference.
  evaluation::Peak peak_velocity;
  double velocity_scale = 0.0;  // the fraction of the velocity limits Algorithm 1 enforced
  double torque_scale = 0.0;    // the fraction of the effort limits the torque re-timing enforced (0: none)
  io::PosLayout pos_layout;     // the robot's .pos columns (its description), for writing the result
};

// Runs the baseline on a .bvh or .c3d file. Throws InputError (clip, preset, option values),
// ModelError (URDF).
KinematicRetargetResult kinematic_retarget(const std::filesystem::path& clip,
                                           const KinematicRetargetOptions& options,
                                           const ProgressCallback& progress = {});

// The same with a robot already loaded (free-flyer); the IK starts from its nominal pose.
KinematicRetargetResult kinematic_retarget(const mocap::Clip& clip, const model::Robot& robot,
                                           const KinematicRetargetOptions& options,
                                           const ProgressCallback& progress = {});

// The same from a model (free-flyer, in `description`'s joint order) and its description held apart (as
// pipeline::Robot holds them): the IK runs over the description's retarget joints and starts from its
// nominal pose.
KinematicRetargetResult kinematic_retarget(const mocap::Clip& clip, const model::Model& model,
                                           const model::RobotDescription& description,
                                           const KinematicRetargetOptions& options,
                                           const ProgressCallback& progress = {});

// The same from the clip's landmarks, extracted by the caller with options.preset (the retarget pipeline
// reads them once for its mode choice and hands them on; options.load is then unused).
KinematicRetargetResult kinematic_retarget(const retarget::LandmarkTrack& track, const model::Model& model,
                                           const model::RobotDescription& description,
                                           const KinematicRetargetOptions& options,
                                           const ProgressCallback& progress = {});

// A few human-readable lines: frames, durations before and after re-timing, slow-down, peak velocity ratio,
// and (with_zmp) how the reference's ZMP was computed.
std::string format_summary(const KinematicRetargetResult& result, bool with_zmp = true);

}  // namespace mimic::pipeline
