// The two legs of a biped and the one way of re-solving them under a new base pose: every stage that moves
// the waist and must keep the soles where they are (the ZMP stabilizer's waist shift, the feet planted under
// the retargeted waist, the walking pattern, the final support projection of smoothing) calls refit_legs.
//
// A refit reads its IK seed from the leg angles already in q and writes the solution back into q: the
// closed form takes the branch nearest the seed and the damped Newton solve starts from it (leg_ik.hpp), so a
// caller that carries q from sample to sample seeds each sample with the previous one and the legs cannot
// jump between the knee-forward and knee-backward branches. The base pose is passed explicitly (not read from
// q): callers hold it as an SE3, and rebuilding it from q's quaternion would change the result by rounding.
#pragma once

#include <Eigen/Core>
#include <array>
#include <string>

#include "mimic/model/model.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/spatial/se3.hpp"
#include "mimic/stability/ground_reaction.hpp"
#include "mimic/stability/leg_ik.hpp"

namespace mimic::stability {

// Both legs, found in the model from the sole frames: each is the chain from the root body down to its sole
// (LegKinematics checks its structure), which is the description's leg group (groups.right_leg /
// left_leg: its reader checks that the group is six joints and ends at the sole), right first.
struct Legs {
  static constexpr int kRight = 0, kLeft = 1;
  // The knee's place among a leg's six joints (three hip joints, the knee, two ankle joints, whatever their
  // axes: HRP-2, JVRC-1 and G1 alike): structural, so no robot description is needed to find it.
  static constexpr int kKnee = 3;

  std::array<LegKinematics, 2> leg;  // indexed by kRight, kLeft

  static Legs of(const model::Model& model, const Feet& feet);

  const LegKinematics& right() const { return leg[kRight]; }
  const LegKinematics& left() const { return leg[kLeft]; }
  // Model joint indices, right hip yaw .. ankle roll then left: groups.right_leg then groups.left_leg (the
  // order of the smoothing variables).
  std::array<int, 2 * kLegJoints> joints() const;
};

// The six angles of `leg` in q (model layout) / written into q.
LegAngles leg_angles(const model::Model& model, const LegKinematics& leg,
                     const Eigen::Ref<const Eigen::VectorXd>& q);
void set_leg_angles(const model::Model& model, const LegKinematics& leg, const LegAngles& angles,
                    Eigen::Ref<Eigen::VectorXd> q);

// The outcome of refit_legs: which leg failed first (q keeps its old angles for it), and its IK result.
struct LegRefit {
  int failed_leg = -1;  // Legs::kRight or kLeft; -1 when both legs were refitted
  LegIkResult result;   // the failed leg's IK result (status, and for kJointLimit the joint and angle)

  bool ok() const { return failed_leg < 0; }
};

// Re-solves one leg of q so that its sole is at `sole` (world) with the root body at `root` (world), seeded
// by the angles in q. Writes the angles into q only when solved; otherwise q is left as it was.
LegIkResult refit_leg(const model::Model& model, const LegKinematics& leg, const spatial::SE3& root,
                      const spatial::SE3& sole, Eigen::Ref<Eigen::VectorXd> q);

// Both legs (right, then left; stops at the first failure). Never throws for an unreachable pose: the
// status says which leg and why, and the caller words the error for its stage.
LegRefit refit_legs(const model::Model& model, const Legs& legs, const spatial::SE3& root,
                    const spatial::SE3& right_sole, const spatial::SE3& left_sole,
                    Eigen::Ref<Eigen::VectorXd> q);

// Why a leg could not be refitted, for an error message: "the leg IK for <sole frame> is <status>", with
// the joint and the angle it would need for kJointLimit.
std::string describe_failure(const model::Model& model, const LegKinematics& leg, const LegIkResult& result);

// What refit_support_legs changed and how far the feet were before.
struct SupportRefitReport {
  double max_angle_change = 0.0;   // rad, largest leg joint change made by the refit
  double max_foot_error = 0.0;     // m, largest support-foot displacement before the refit
  double max_foot_rotation = 0.0;  // rad, largest support-foot rotation before the refit
};

// Puts every foot in support back where it was, in the PLANNED motion, when its support began, by refitting
// its leg under the base pose of each sample of q (nq x N, the columns are the samples of `planned`, which
// gives the phases). A foot in the air is left alone. Throws InfeasibleError naming the sample and the leg
// when the IK fails.
SupportRefitReport refit_support_legs(const model::Model& model, const Legs& legs,
                                      const model::SampledMotion& planned, Eigen::MatrixXd& q);

}  // namespace mimic::stability
