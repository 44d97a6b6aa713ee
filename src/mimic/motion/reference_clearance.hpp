// The retarget reference cleared of DEEP self-collision before the motion problem is built (issue 16).
//
// Why: the problem's self-collision rows (terms/self_collision.hpp) take the distance of two shapes and
// its gradient. A capsule's distance is |p1 - p2| - r1 - r2 over the closest points p1, p2 of the two
// cores (segments; a box is its own core, radius 0), and its gradient points along p1 - p2. When the
// human's hand goes through the robot's head (G1 on data/mocap/boxing.bvh: the right hand 13 cm inside
// the head capsule of radius 0.0815 m, the two segments nearly crossing), |p1 - p2| is nearly 0 and that
// direction turns over a displacement of millimetres: the first-order model the solver steps on holds
// for no useful step. Measured on G1's full boxing: at penalty 10 the first inner steps swung the wrist
// 7-9 rad past its limit to get the hand out, the hand folded into the forearm, and the solve never
// recovered (exit 4 after 265 s).
//
// Deep, the criterion: a pair whose cores come closer than the smaller radius, d < -max(r1, r2) (a
// capsule's core inside a box: d < -r). Displacements of the size of the thinner shape then turn the
// gradient by O(1). A shallow overlap (HRP-2's hands 1.1 cm into the body on boxing, 3.0 cm on
// boxing_c3d, less than the larger radius of the pair) keeps a well-defined gradient and is left to the
// solver's rows as before, so such a reference is returned bit for bit.
//
// What is done: for each pair, every run of consecutive samples inside `target` (the rows' distance) that
// goes deep somewhere is cleared. Sample by sample in time order, so that the push-out direction is
// carried along the run instead of read from the ill-defined gradient:
//   1. the previous sample's offset (cleared pose - reference pose, active joints; 0 where a run starts)
//      is added to the reference pose: where the hand enters the head it was pushed out at the run's
//      first, shallow samples, along a well-defined gradient, and that push is continued;
//   2. the pose is cleared from there (end_pose_clearance.hpp's least-norm, then trust-region steps, in
//      the angle limits) with a target per pair: `target` for the pairs of the deep runs, and for every
//      other pair its distance on the reference (at most `target`): the push-out brings no other shape
//      closer (the forearm into the torso), and a shallow overlap stays the solver's;
//   3. the offset is shrunk along its direction to the smallest clear fraction (bisection);
//   4. and pulled back to the least-norm clear offset: Gauss-Newton steps to the projection of the
//      reference onto the linearised boundary of the binding pairs, each halved until the pose is clear and
//      the offset shorter. The cleared reference is then the nearest clear pose at each sample (locally,
//      on the side the run entered from): it decays back to the reference where the hand leaves the
//      shape, and joins the untouched samples around the run continuously.
// The imitated frames (gaze, grippers) of the moved samples have their targets moved by as much as the
// pose moved them, so the frame imitation does not pull them back in. The solver then imitates this
// cleared reference, inside the same limits: the joint and position errors it reports are measured
// against the reference as captured (optimize_motion.cpp).
#pragma once

#include <Eigen/Core>
#include <limits>
#include <string>
#include <vector>

#include "mimic/core/thread_pool.hpp"
#include "mimic/geometry/collision_model.hpp"
#include "mimic/model/limits.hpp"
#include "mimic/model/model.hpp"

namespace mimic::motion {

// True when the pair's cores come closer than the smaller shape's radius (file comment).
bool deep_collision(const geometry::CollisionPair& pair, double distance);

struct ReferenceClearance {
  int runs = 0;       // runs of samples cleared (0: the reference had no deep collision and is unchanged)
  int samples = 0;    // samples moved
  int uncleared = 0;  // moved samples short of their targets (the arm is boxed in by its limits)
  // The deepest collision found on the reference (m, > 0 inside), its pair (cmodel.pairs index) and sample.
  double deepest = 0.0;
  int deepest_pair = -1, deepest_sample = -1;
  double shift = 0.0;  // rad: the largest change of an active joint
  // m: the closest pair of a deep run over the moved samples.
  double min_distance = std::numeric_limits<double>::infinity();
};

// `q`: configurations (nq x N) with the base at the identity (distances do not depend on it), changed in
// place on the joints `active` (model joint indices, 1-dof) only; `pairs`: indices into cmodel.pairs;
// `limits` bound the active joints; `frames`: the imitated frames (model frame indices) whose targets
// `frame_targets` (3 x frames.size() rows, N columns, waist frame) move with the cleared poses. `pool`
// (optional): the threads of the reference's distances (geometry/motion_distances); the runs are cleared in
// time order on the calling thread, and the result does not depend on it.
ReferenceClearance clear_deep_collisions(const model::Model& model, const geometry::CollisionModel& cmodel,
                                         const std::vector<int>& pairs, const std::vector<int>& active,
                                         const model::ScaledLimits& limits, double target,
                                         const std::vector<int>& frames, Eigen::MatrixXd& q,
                                         Eigen::MatrixXd& frame_targets, core::ThreadPool* pool = nullptr);

}  // namespace mimic::motion
