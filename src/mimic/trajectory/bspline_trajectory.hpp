// Joint trajectories of n joints as one quartic B-spline: q(t) = Q B(t) (seed 000 eq. (22)), where the
// control-point matrix Q has one row per joint and one column per basis function; qdot and qddot use
// the derivatives of B (eq. (23)).
#pragma once

#include <Eigen/Core>
#include <span>

#include "mimic/trajectory/bspline_basis.hpp"

namespace mimic::trajectory {

// Joint positions, velocities and accelerations at a set of times: column i belongs to time i.
struct JointSamples {
  Eigen::MatrixXd q;
  Eigen::MatrixXd qdot;
  Eigen::MatrixXd qddot;
};

class BsplineTrajectory {
 public:
  // control_points: num_joints x basis.num_control_points(); throws std::invalid_argument otherwise.
  BsplineTrajectory(QuarticBspline basis, Eigen::MatrixXd control_points);

  const QuarticBspline& basis() const { return basis_; }
  const Eigen::MatrixXd& control_points() const { return control_points_; }
  int num_joints() const { return static_cast<int>(control_points_.rows()); }
  double t0() const { return basis_.t0(); }
  double tf() const { return basis_.tf(); }

  // q, qdot, qddot at t (each of size num_joints; resized if needed). Times outside [t0, tf] throw
  // std::out_of_range (see QuarticBspline::evaluate).
  void evaluate(double t, Eigen::VectorXd& q, Eigen::VectorXd& qdot, Eigen::VectorXd& qddot) const;
  Eigen::VectorXd position(double t) const;
  Eigen::VectorXd velocity(double t) const;
  Eigen::VectorXd acceleration(double t) const;

  // All three at each time (e.g. the 200 Hz output grid).
  JointSamples sample(std::span<const double> times) const;

 private:
  Eigen::VectorXd derivative(double t, int order) const;

  QuarticBspline basis_;
  Eigen::MatrixXd control_points_;
};

}  // namespace mimic::trajectory
