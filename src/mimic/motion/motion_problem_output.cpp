// The MotionProblem's evaluations outside the solver loop: the initial guess and the whole-body samples,
// torques and end-effector positions of a solution at every input sample (the 200 Hz output check).
#include <algorithm>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/dynamics/rnea.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/motion/motion_problem.hpp"
#include "mimic/trajectory/spline_fit.hpp"

namespace mimic::motion {

Eigen::VectorXd MotionProblem::initial_guess() const { return initial_guess(reference_joints_); }

Eigen::VectorXd MotionProblem::initial_guess(const Eigen::MatrixXd& active_joints) const {
  return clamped(trajectory::fit_spline(parameterization_, times(), active_joints));
}

trajectory::JointSamples MotionProblem::joint_samples(const Eigen::VectorXd& x) const {
  trajectory::JointSamples active;
  basis_.evaluate(x, active);
  trajectory::JointSamples all{passive_q_, passive_v_, passive_a_};
  for (int p = 0; p < m_; ++p) {
    all.q.row(active_[p]) = active.q.row(p);
    all.qdot.row(active_[p]) = active.qdot.row(p);
    all.qddot.row(active_[p]) = active.qddot.row(p);
  }
  return all;
}

Eigen::MatrixXd MotionProblem::torques(const trajectory::JointSamples& joints) const {
  model::Data data(model_);
  Eigen::VectorXd q(model_.nq), v(model_.nv), a(model_.nv);
  Eigen::MatrixXd tau(model_.nj, n_);
  for (int n = 0; n < n_; ++n) {
    q << base_q_.col(n), joints.q.col(n);
    v << base_v_.col(n), joints.qdot.col(n);
    a << base_a_.col(n), joints.qddot.col(n);
    tau.col(n) = dynamics::rnea(model_, data, q, v, a).tail(model_.nj);
  }
  return tau;
}

Eigen::MatrixXd MotionProblem::end_effector_positions(const Eigen::MatrixXd& joint_positions) const {
  model::Data data(model_);
  Eigen::VectorXd q(model_.nq);
  model::set_base_pose(model_, q, spatial::SE3::Identity());  // base at the identity: waist frame
  Eigen::MatrixXd points(9, n_);
  for (int n = 0; n < n_; ++n) {
    q.tail(model_.nj) = joint_positions.col(n);
    dynamics::forward_kinematics(model_, data, q);
    for (int f = 0; f < 3; ++f)
      points.block<3, 1>(3 * f, n) = dynamics::update_frame_placement(model_, data, frames_[f]).p;
  }
  return points;
}

}  // namespace mimic::motion
