// The pinned ends of the retarget spline, cleared of self-collision (issue 13). The spline starts and ends
// at rest on the reference's first and last poses (motion_problem.hpp); when the clip starts or ends with a
// hand inside the head, the torso or a thigh (a real capture with the arms hanging at the sides meets the
// conservative capsules of HRP-2's thighs), no trajectory with that end can pass `mimic check`. Such an end
// pose is moved, before the problem is built, to a nearby pose whose listed pairs are at least `target`
// apart: Gauss-Newton steps of least norm in the active joints, d_p(q + dq) ~ d_p(q) + J_p dq = target for
// every pair below it, kept inside the (factored) angle limits. Those clear a shallow overlap in a step or
// two, but a deep one (G1's hands hanging 5 cm inside its hip motors) asks a first step of radians, which
// jams the arm at its limits; when they stall, trust-region (Levenberg-Marquardt) steps on the squared
// shortfalls of every pair start again from the captured pose, at most 0.2 rad per joint per step, each
// accepted only if it reduces the shortfall. A pose already clear is left exactly as it is, so a clip whose
// ends are clear (the shipped boxing.bvh) gives the same problem as before.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/geometry/collision_model.hpp"
#include "mimic/model/limits.hpp"
#include "mimic/model/model.hpp"

namespace mimic::motion {

struct EndPoseClearance {
  bool cleared = false;       // every listed pair at least `target` apart at the returned pose
  int iterations = 0;         // Gauss-Newton steps taken (0: the pose was clear)
  double shift = 0.0;         // rad: the largest change of an active joint
  double min_distance = 0.0;  // m: the closest listed pair at the returned pose
};

// `q`: a configuration (nq, base anywhere: distances do not depend on it), changed in place on the joints
// `active` (model joint indices, 1-dof) only; `pairs`: indices into cmodel.pairs; `limits.lower/upper` bound
// the active joints.
EndPoseClearance clear_end_pose(const model::Model& model, const geometry::CollisionModel& cmodel,
                                const std::vector<int>& pairs, const std::vector<int>& active,
                                const model::ScaledLimits& limits, double target, Eigen::VectorXd& q);
// The same with a target per pair (`targets[i]` for pairs[i]; `cleared`: every pair at least its target
// apart): the deep-collision clearance of the reference (reference_clearance.hpp) keeps a pair that
// overlaps shallowly no deeper than it was.
EndPoseClearance clear_end_pose(const model::Model& model, const geometry::CollisionModel& cmodel,
                                const std::vector<int>& pairs, const std::vector<int>& active,
                                const model::ScaledLimits& limits, const std::vector<double>& targets,
                                Eigen::VectorXd& q);

}  // namespace mimic::motion
