// The upper body of a walking pattern: the joints that the leg IK does not set (chest, head, arms, hands),
// as a function of time. Three sources:
//  * a fixed posture (half-sitting by default);
//  * a joint sequence (a .pos, read by the walk stage, pipeline/walk.hpp), resampled linearly to the walk's
//    samples and held at its last sample after its end; its leg columns are ignored;
//  * a joint sequence sampled more coarsely than the walk (the whole-body retarget's re-timed reference,
//    slowed down by the plan's stretch), resampled by cubic Hermite pieces: linear pieces would put each
//    change of velocity into one walk sample, an acceleration spike the legs and the waist must carry;
//  * a keyframe YAML, each keyframe setting some upper-body joints by name at a time, the joints not named
//    keeping their previous value (the first keyframe starts from the fixed posture); consecutive keyframes
//    are joined by minimum-jerk transitions (zero velocity and acceleration at each keyframe):
//
//      keyframes:
//        - { time: 0.0 }
//        - time: 3.0
//          joints: { RARM_JOINT0: -0.6, RARM_JOINT3: -0.9 }
//
//    Unknown keys, unknown or leg joints, and times that do not increase are InputErrors "file:line N: ...".
#pragma once

#include <Eigen/Core>
#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

#include "mimic/model/model.hpp"

namespace mimic::walking {

class UpperBodyTrajectory {
 public:
  // A constant posture: every joint of the model (size nj; leg values are ignored by the generator).
  static UpperBodyTrajectory fixed(const Eigen::VectorXd& joints);
  // Linear interpolation of a joint sequence (rows = samples, nj columns) at strictly increasing times.
  static UpperBodyTrajectory sampled(std::vector<double> times, Eigen::MatrixXd joints);
  // Cubic Hermite interpolation of a joint sequence at strictly increasing times, with the three-point
  // derivative estimate at each sample (one-sided at the ends): continuous velocity, exact on quadratics.
  static UpperBodyTrajectory cubic(std::vector<double> times, Eigen::MatrixXd joints);
  // Minimum-jerk transitions between postures (rows) at strictly increasing times.
  static UpperBodyTrajectory keyframes(std::vector<double> times, Eigen::MatrixXd postures);

  // Writes all nj joints at time t (held at the first / last sample outside the time range).
  void at(double t, Eigen::Ref<Eigen::VectorXd> joints) const;
  // The time of the last sample or keyframe (0 for a fixed posture).
  double end_time() const { return times_.back(); }

 private:
  enum class Interpolation { kLinear, kMinimumJerk, kCubicHermite };
  UpperBodyTrajectory(std::vector<double> times, Eigen::MatrixXd joints, Interpolation interpolation);

  std::vector<double> times_;
  Eigen::MatrixXd joints_;      // samples x nj
  Eigen::MatrixXd velocities_;  // samples x nj, the Hermite tangents (kCubicHermite only)
  Interpolation interpolation_;
};

// Reads the keyframe YAML at `path`. `posture` (size nj) is the posture the keyframes start from;
// `leg_joints` the model joints a keyframe may not set. Throws InputError "file:line N: ..." for a bad file.
UpperBodyTrajectory load_upper_body_keyframes(const std::filesystem::path& path, const model::Model& model,
                                              const Eigen::VectorXd& posture,
                                              std::span<const int> leg_joints);
// The keyframe YAML over text in memory (`source` names it in errors).
UpperBodyTrajectory parse_upper_body_keyframes(std::string_view yaml, const std::filesystem::path& source,
                                               const model::Model& model, const Eigen::VectorXd& posture,
                                               std::span<const int> leg_joints);

}  // namespace mimic::walking
