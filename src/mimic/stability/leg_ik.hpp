// Inverse kinematics of one HRP-2 leg: the six joint angles that put the sole at a given pose for a given
// waist (root body) pose.
//
// The chain, read from the Model (not from literals), is root -> hip yaw (z) -> hip roll (x) -> hip pitch (y)
// -> knee (y) -> ankle pitch (y) -> ankle roll (x) -> sole frame. For HRP-2 (hrp2.md §2) the hip yaw and
// roll axes intersect, the hip pitch joint sits 0.035 m sideways along its own axis after the roll, the
// thigh and shank are 0.300 m, the ankle axes intersect 0.105 m above the sole. Then the hip centre seen
// from the ankle depends on the ankle roll, knee and ankle pitch only, which gives a closed form (Kajita's
// analytic leg IK, extended by the lateral offset along the pitch axes):
//   r = hip centre - ankle in ankle-roll coordinates;   Rx(q5) r = (x, d, z)  with d the lateral offset,
//   q5 from the (y, z) part; the knee q3 from the law of cosines on |(x, z)|; the ankle pitch q4 from the
//   angle of (x, z); then Rz(q0) Rx(q1) Ry(q2 + q3 + q4) = hip orientation relative to the ankle roll.
// A Newton polish on the exact chain follows, so a model whose geometry departs slightly from that
// structure (an offset off the axes) is still solved to full precision.
#pragma once

#include <Eigen/Core>
#include <array>
#include <string>

#include "mimic/model/model.hpp"
#include "mimic/spatial/se3.hpp"

namespace mimic::stability {

// A leg is six revolute joints from the hip to the ankle: the contract of the robot description's leg
// groups (docs/robot-description.md; its reader refuses any other count and checks that each leg ends at
// its sole) and the structure the closed form needs.
inline constexpr int kLegJoints = 6;

using LegAngles = Eigen::Matrix<double, kLegJoints, 1>;  // hip yaw, roll, pitch, knee, ankle pitch, roll

enum class LegIkStatus {
  kSolved,
  kOutOfReach,    // the ankle is farther from (or nearer to) the hip than the straight (folded) leg
  kJointLimit,    // the pose is reachable only outside the joint limits (see LegIkResult::limit_joint)
  kNotConverged,  // the Newton polish did not reach the tolerance (near a singularity)
};

const char* to_string(LegIkStatus status);

struct LegIkResult {
  LegIkStatus status = LegIkStatus::kNotConverged;
  LegAngles angles = LegAngles::Zero();  // the solution (for kJointLimit: the out-of-limits solution)
  double position_error = 0.0;           // m, |sole position - target| of `angles`
  double rotation_error = 0.0;           // rad, angle of sole rotation^-1 * target rotation
  int limit_joint = -1;                  // for kJointLimit: which of the six (0..5) is outside its limits

  bool ok() const { return status == LegIkStatus::kSolved; }
};

// The geometry of one leg, extracted once from the Model.
class LegKinematics {
 public:
  // The chain from the root body to `sole_frame` must be six revolute joints with axes z, x, y, y, y, x
  // (in their own frames) hanging from the root body; otherwise ModelError.
  LegKinematics(const model::Model& model, const std::string& sole_frame);

  const std::string& sole_frame() const { return sole_frame_; }
  // Model joint indices of hip yaw .. ankle roll (for HRP-2's right leg: 0..5).
  const std::array<int, kLegJoints>& joints() const { return joints_; }
  double lower_limit(int i) const { return lower_[static_cast<std::size_t>(i)]; }
  double upper_limit(int i) const { return upper_[static_cast<std::size_t>(i)]; }

  // Sole pose (world) for a root pose (world) and the six angles: forward kinematics of the chain alone.
  spatial::SE3 sole_pose(const spatial::SE3& root, const LegAngles& angles) const;

  // The angles putting the sole at `sole` (world) with the root at `root` (world). The closed form has up
  // to four branches (knee bent either way, hip above or below the ankle); the one within the joint limits
  // nearest to `seed` is taken (pass the previous sample's angles for continuity; the default, the
  // straight leg, selects the usual knee-forward branch). Never throws for an unreachable pose: the status
  // says why. Solved means position and rotation errors <= 1e-9 m and rad (the Newton polish converges to
  // rounding; the requirement is 0.1 mm and 0.01 degree).
  LegIkResult solve(const spatial::SE3& root, const spatial::SE3& sole,
                    const LegAngles& seed = LegAngles::Zero()) const;

  // solve(), throwing InfeasibleError with the status, the leg and the reach when it fails.
  LegAngles solve_or_throw(const spatial::SE3& root, const spatial::SE3& sole,
                           const LegAngles& seed = LegAngles::Zero()) const;

 private:
  // The closed-form branches for the ankle-roll body at `hip_to_ankle` in the hip-yaw joint frame;
  // returns how many (0 when out of reach).
  int closed_form(const spatial::SE3& hip_to_ankle, std::array<LegAngles, 4>& branches) const;
  // Angles moved by multiples of 2 pi next to the middle of their range; the first joint outside its limits
  // (-1 if none).
  int wrap_and_check_limits(LegAngles& q) const;
  // 6x6 Jacobian of the sole twist (sole frame) with respect to the angles, and the sole pose (world).
  spatial::SE3 sole_pose_and_jacobian(const spatial::SE3& root, const LegAngles& angles,
                                      Eigen::Matrix<double, 6, 6>& jacobian) const;

  std::string sole_frame_;
  std::array<int, kLegJoints> joints_{};
  std::array<spatial::SE3, kLegJoints> placements_;  // joint frame in its parent body frame, at zero angle
  std::array<double, kLegJoints> lower_{}, upper_{};
  spatial::SE3 sole_in_ankle_;  // sole frame in the ankle-roll body
  // Closed-form parameters derived from the placements.
  double lateral_offset_ = 0.0;       // d: hip centre - hip pitch joint along the pitch axis
  double thigh_ = 0.0, shank_ = 0.0;  // A, B
};

}  // namespace mimic::stability
