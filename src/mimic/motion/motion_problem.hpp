// The motion optimisation of seed 000 section VI as an optim::Problem.
//
// Variables: the free quartic B-spline control points of the 16 active joints (active_joints.hpp); the
// boundary conditions q(t0) = q_c(t0), q(tf) = q_c(tf), qdot = qddot = 0 at both ends are built into the
// parameterization (trajectory::SplineParameterization, kFixedAtRest at both ends), so they are exact and
// cost no constraint.
//
// Objective, 1/2 |r|^2 with r sampled at every input sample (the 200 Hz output grid):
//   imitation (seed 000 eq. (1)): r = sqrt(dt) (q - q_c) for the active joints and
//                                 sqrt(sigma dt) (P - P_c) for the gaze and both gripper positions in the
//                                 waist frame (forward kinematics, analytic frame Jacobians);
//   torque:                       r = sqrt(dt) tau for the active joints (RNEA with the given base motion;
//                                 a payload is part of the model, model::with_payload).
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
//              ProblemOptions::torque_samples; optimize_motion() chooses a coarse grid and adds every
//              200 Hz sample where a check of the solution finds a violation, then solves again (torque
//              is not linear in x, so no convex-hull shortcut exists).
//
// Gradients, seed 000 eq. (24): at sample n, q(t_n) = sum_i c_i B_i(t_n), qdot = sum_i c_i B_i'(t_n),
// qddot = sum_i c_i B_i''(t_n), so for any y(q, qdot, qddot) at t_n and control point c_{i,j}
//   dy/dc_{i,j} = dy/dq_j B_i(t_n) + dy/dqdot_j B_i'(t_n) + dy/dqddot_j B_i''(t_n),
// i.e. dtau/dX = dtau/dq B + dtau/dqdot B' + dtau/dqddot B''. The partials come from
// dynamics::compute_rnea_derivatives (dtau/dqddot = M(q)) and trajectory::SampledBasis::chain_rule applies
// the basis. Only the <= 5 control points whose basis is non-zero at t_n appear, so every Jacobian is
// block-banded with a pattern fixed at construction.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "mimic/dynamics/derivative_data.hpp"
#include "mimic/model/data.hpp"
#include "mimic/model/limits.hpp"
#include "mimic/model/model.hpp"
#include "mimic/motion/active_joints.hpp"
#include "mimic/motion/base_motion.hpp"
#include "mimic/motion/motion_input.hpp"
#include "mimic/optim/problem.hpp"
#include "mimic/terms/velocity_rows.hpp"
#include "mimic/trajectory/sampled_basis.hpp"
#include "mimic/trajectory/spline_parameterization.hpp"

namespace mimic::motion {

// What the residual r measures (file comment): the job's objective.kind, mapped by pipeline/job_options.
enum class Objective : std::uint8_t { kImitation, kTorque };

struct ProblemOptions {
  Objective objective = Objective::kImitation;
  double sigma = 1.0;  // weight of the position error (imitation)
  model::LimitFactors limits;
  double knot_spacing = trajectory::kDefaultKnotSpacing;
  std::vector<int> torque_samples;  // input sample indices (ascending) with torque limit constraints
};

class MotionProblem : public optim::Problem {
 public:
  // `model`: HRP-2 with a free-flyer in OpenHRP order, with any payload already added; it must outlive
  // the problem. `input` must pass validate_input(). Throws std::invalid_argument for a torque sample
  // out of range or a clip too short for two knot intervals.
  MotionProblem(const model::Model& model, const MotionInput& input, ProblemOptions options);

  int num_variables() const override { return parameterization_.num_variables(); }
  int num_residuals() const override { return residual_rows_; }
  int num_inequalities() const override { return velocity_rows_ + torque_rows_; }
  void variable_bounds(Eigen::VectorXd& lower, Eigen::VectorXd& upper) const override;
  optim::SparseMatrix residual_jacobian_pattern() const override;
  optim::SparseMatrix inequality_jacobian_pattern() const override;
  void evaluate(const Eigen::VectorXd& x, bool jacobians, optim::Evaluation& out) override;
  // "RARM_JOINT3 torque at t=1.235 s exceeds its limit 97.2 N m by 3.1 N m", "... velocity (control
  // polygon near t=0.85 s) ...", "... angle (control point near t=...) ...".
  std::string describe_constraint(optim::ConstraintKind kind, int index, double value) const override;

  const trajectory::SplineParameterization& parameterization() const { return parameterization_; }
  const std::vector<int>& active_joints() const { return active_; }  // model joint indices
  const ScaledLimits& limits() const { return limits_; }
  const std::vector<double>& times() const { return times_; }
  const ProblemOptions& options() const { return options_; }

  // Least-squares fit of the reference (trajectory::fit_spline), clamped into the variable bounds.
  Eigen::VectorXd initial_guess() const;
  // All 30 joints at every input sample (30 x N each): active ones from x, passive ones given.
  trajectory::JointSamples joint_samples(const Eigen::VectorXd& x) const;
  // Joint torques (30 x N) of joint_samples() by RNEA with the given base motion.
  Eigen::MatrixXd torques(const trajectory::JointSamples& joints) const;
  // Gaze, right and left gripper positions in the waist frame (9 x N) of joint_samples().q.
  Eigen::MatrixXd end_effector_positions(const Eigen::MatrixXd& joint_positions) const;

 private:
  void set_configuration(int sample, bool with_base);
  void evaluate_imitation(bool jacobians, optim::Evaluation& out);
  void evaluate_torque_objective(bool jacobians, optim::Evaluation& out);
  void evaluate_velocity(const Eigen::VectorXd& x, bool jacobians, optim::Evaluation& out) const;
  void evaluate_torque_limits(bool jacobians, optim::Evaluation& out);
  // RNEA derivatives at input sample n from samples_ (all-sample basis) or torque_samples_.
  void rnea_derivatives_at(int sample, const trajectory::JointSamples& active, int column);
  double control_point_time(int slot) const;

  const model::Model& model_;
  ProblemOptions options_;
  ScaledLimits limits_;
  std::vector<int> active_;  // model joint indices of the active joints
  int m_ = 0;                // number of active joints
  int n_ = 0;                // number of input samples
  double dt_ = 0.0;
  std::vector<double> times_;
  Eigen::MatrixXd reference_joints_;                   // m x N
  Eigen::MatrixXd reference_points_;                   // 9 x N
  Eigen::MatrixXd passive_q_, passive_v_, passive_a_;  // nj x N (active rows unused)
  BaseMotion base_;

  trajectory::SplineParameterization parameterization_;
  trajectory::SampledBasis basis_;              // every input sample (objective)
  trajectory::SampledBasis torque_basis_;       // the torque-constraint samples
  std::vector<int> frames_;                     // gaze, r_gripper, l_gripper
  std::vector<std::vector<int>> frame_chain_;   // active indices moving each frame (ascending)
  std::vector<std::vector<int>> torque_chain_;  // active indices each active torque depends on
  terms::VelocityRows velocity_;
  int residual_rows_ = 0;
  int velocity_rows_ = 0;
  int torque_rows_ = 0;

  // Scratch (sized once; evaluate() does not allocate).
  model::Data data_;
  dynamics::DerivativeData derivatives_;
  trajectory::JointSamples samples_, torque_samples_;
  Eigen::VectorXd q_, v_, a_;
  Eigen::Matrix<double, 6, Eigen::Dynamic> frame_jacobian_;
  Eigen::VectorXd dq_, dv_, da_;
};

}  // namespace mimic::motion
