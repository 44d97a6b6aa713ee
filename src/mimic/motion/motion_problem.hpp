// The motion optimisation of seed 000 section VI as an optim::Problem.
//
// Variables: the free quartic B-spline control points of the active joints (the robot description's
// commands.retarget: HRP-2's torso, neck and both arms, 16 joints); the legs are given (the base motion
// and the leg joints come from the reference, with the velocities and accelerations of its
// model::SampledMotion, or held at MotionInput::rest) and so are the hands, whose opening does not move the
// gripper frames and has no mocap counterpart. The boundary conditions q(t0) = q_c(t0), q(tf) = q_c(tf),
// qdot = qddot = 0 at both ends are built into the parameterization (trajectory::SplineParameterization,
// kFixedAtRest at both ends), so they are exact and cost no constraint.
//
// Objective, 1/2 |r|^2 with r sampled at every input sample (the 200 Hz output grid):
//   imitation (seed 000 eq. (1)): r = sqrt(dt) (q - q_c) for the active joints and
//                                 sqrt(sigma dt) (P - P_c) for the gaze and both gripper positions in the
//                                 waist frame (the description's frames.gaze, right_gripper and
//                                 left_gripper; forward kinematics, analytic frame Jacobians);
//   torque:                       r = sqrt(dt) tau for the active joints (RNEA with the given base motion;
//                                 a payload is part of the model, model::with_payload); with
//                                 ProblemOptions::objective_stride k > 1 only at every k-th sample,
//                                 r = sqrt(k dt) tau (rectangle rule on the coarse grid, k times fewer rows);
//   blended (imitation with ProblemOptions::torque_weight w > 0): the imitation's rows and, at every
//                                 sample, sqrt(w dt) tau for the active joints, i.e. 1/2 (integral of
//                                 |q - q_c|^2 + sigma |P - P_c|^2 + w tau^T tau dt): "as close to the human
//                                 as possible, and among such motions the one that costs the least torque".
//
// Constraints, each scaled by its (factored) limit so that the solvers' feasibility tolerance is a
// fraction of the limit:
//   angle    - variable bounds on the control points. A B-spline lies in the convex hull of its control
//              points (the basis is non-negative and sums to one), so lower <= c_i <= upper for every i
//              gives lower <= q(t) <= upper for EVERY t, hence at 200 Hz. The pinned end points equal
//              q_c(t0), q_c(tf), which the caller checks against the limits.
//   velocity - |qdot| <= qdot_max at EVERY t through the derivative's control polygon (velocity_rows.hpp):
//              linear in x, sufficient, slightly conservative.
//   torque   - g = +-tau_j(t_n) / tau_max_j - 1 <= 0 for the active joints at the samples listed in
//              ProblemOptions::torque_samples but its pair_only_samples; optimize_motion() chooses a
//              coarse grid and adds every 200 Hz sample where a check of the solution finds a violation,
//              then solves again (torque is not linear in x, so no convex-hull shortcut exists).
//   geometry - distance >= safety distance (issue 13, terms/self_collision.hpp: g = 1 - d / d_s <= 0 for
//              the lower bound) for ProblemOptions::collision_pairs at the torque samples but the ends.
//              The legs are passive but count: a hand near a thigh moves only through the arm. Which
//              pairs: optimize_motion() screens them (optimize_motion.hpp).
//
// The rows come from terms (src/mimic/terms) on the SplineProblem core (spline_problem.hpp), which applies
// the chain rule of seed 000 eq. (24): JointImitation and FrameImitation (evaluated with the base at the
// identity, so world coordinates are waist coordinates) or TorqueResidual, and TorqueLimits (with the given
// base motion; a payload is part of the model). Every factor (sqrt(dt), sqrt(sigma dt), 1 / tau_max) is
// applied to the partials before the chain rule, as the problem always did (its outputs stay bit for bit).
//
// evaluate is const: all scratch lives in a MotionProblemData (create_data()), so two threads can evaluate
// one problem with one MotionProblemData each. The optim::Problem entry point uses the problem's own data.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mimic/model/limits.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"
#include "mimic/motion/geometry_constraints.hpp"
#include "mimic/motion/motion_input.hpp"
#include "mimic/motion/spline_problem.hpp"
#include "mimic/trajectory/spline_parameterization.hpp"

namespace mimic::motion {

// What the residual r measures (file comment): the job's objective.kind, mapped by pipeline/job_options.
enum class Objective : std::uint8_t { kImitation, kTorque };

struct ProblemOptions {
  Objective objective = Objective::kImitation;
  double sigma = 1.0;  // weight of the position error (imitation)
  // Imitation only: weight w of the torque integral in the blended objective, rad^2 / (N m)^2 (0: none).
  double torque_weight = 0.0;
  // Torque objective only: its integral by the rectangle rule on every objective_stride-th sample (and the
  // last), each weighted by the samples nearest to it times dt (the weights add up to the dense sum's): k
  // times fewer residual rows. 1: every sample (weight dt). The torque-limit and collision rows stay at
  // torque_samples.
  int objective_stride = 1;
  model::LimitFactors limits;
  double knot_spacing = trajectory::kDefaultKnotSpacing;
  std::vector<int> torque_samples;  // input sample indices (ascending) with torque limit constraints
  // Torque samples whose torque-limit rows are left out, keeping their pair rows (optimize_motion: the
  // torque objective's samples when its start stays far below the limits,
  // MotionSettings::torque_objective_row_ratio).
  std::vector<int> pair_only_samples;
  // Self-collision rows: geometry.collision's pairs listed in collision_pairs (none when empty), each kept
  // geometry.safety_distance apart at every torque sample but the first and the last: a row at a pinned end
  // is a constant (optimize_motion clears the ends of self-collision before, end_pose_clearance.hpp).
  GeometryConstraintOptions geometry;
  std::vector<int> collision_pairs;
};

using MotionProblemData = SplineProblemData;

// The frames the imitation follows (model frame indices): the description's gaze, right and left gripper,
// in the order of MotionInput::end_effectors' rows.
std::vector<int> imitated_frames(const model::Model& model, const model::RobotDescription& description);

class MotionProblem : public SplineProblem {
 public:
  // `model`: the robot with a free-flyer, with any payload already added; it must outlive the problem.
  // `description` names its active joints (commands.retarget) and imitated frames. `input` must pass
  // validate_input(). Throws std::invalid_argument for a torque sample out of range or a clip too short
  // for two knot intervals, and InfeasibleError (naming the joint, time, torque and limit) when a torque
  // sample at the first or last sample breaks a torque limit: the ends are pinned (q = the reference,
  // qdot = qddot = 0), so no x changes those torques, and the solver would only find out after minutes.
  MotionProblem(const model::Model& model, const model::RobotDescription& description,
                const MotionInput& input, ProblemOptions options);

  // "RARM_JOINT3 torque at t=1.235 s exceeds its limit 97.2 N m by 3.1 N m", "... velocity (control
  // polygon near t=0.85 s) ...", "... angle (control point near t=...) ...".
  std::string describe_constraint(optim::ConstraintKind kind, int index, double value) const override;

  const std::vector<int>& active_joints() const { return active_; }  // model joint indices
  const model::ScaledLimits& limits() const { return limits_; }
  const ProblemOptions& options() const { return options_; }

  // Least-squares fit of the reference (trajectory::fit_spline), clamped into the variable bounds.
  Eigen::VectorXd initial_guess() const;
  // The same fit of other samples of the active joints (m x N, e.g. torque_objective_start.hpp's).
  Eigen::VectorXd initial_guess(const Eigen::MatrixXd& active_joints) const;
  // All nj joints at every input sample (nj x N each): active ones from x, passive ones given.
  trajectory::JointSamples joint_samples(const Eigen::VectorXd& x) const;
  // Joint torques (nj x N) of joint_samples() by RNEA with the given base motion.
  Eigen::MatrixXd torques(const trajectory::JointSamples& joints) const;
  // Gaze, right and left gripper positions in the waist frame (9 x N) of joint_samples().q.
  Eigen::MatrixXd end_effector_positions(const Eigen::MatrixXd& joint_positions) const;

 private:
  // The robot as the rows see it: the imitation's (base at the identity) or the dynamics' (base moving).
  enum State : int { kWaistFrame, kWorld };

  MotionProblem(const model::Model& model, std::vector<int> active, std::vector<int> frames,
                const MotionInput& input, ProblemOptions options);

  void set_state(int n, int state, SplineProblemData& data) const override;
  void add_rows(const MotionInput& input);
  // The InfeasibleError of the constructor's comment.
  void check_pinned_torques() const;
  double control_point_time(int slot) const;

  ProblemOptions options_;
  model::ScaledLimits limits_;
  std::vector<int> active_;                            // model joint indices of the active joints
  std::vector<int> frames_;                            // gaze, right gripper, left gripper
  int m_ = 0;                                          // number of active joints
  int n_ = 0;                                          // number of input samples
  Eigen::MatrixXd reference_joints_;                   // m x N
  Eigen::MatrixXd passive_q_, passive_v_, passive_a_;  // nj x N (active rows unused)
  Eigen::MatrixXd base_q_, base_v_, base_a_;           // the reference's base rows of q, v, a (7, 6, 6 x N)
};

}  // namespace mimic::motion
