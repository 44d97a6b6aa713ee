// The optimisation variables of a trajectory: the free control points, with the boundary conditions
// built into the parameterization instead of being left to the solver as equality constraints.
//
// Why it is exact: on a clamped quartic spline (knot multiplicity 5 at t0),
//   q(t0)     = c0,
//   qdot(t0)  = 4 / (u5 - u1) (c1 - c0),
//   qddot(t0) = 12 / (u5 - u2) [ (c2 - c1) / (u6 - u2) - (c1 - c0) / (u5 - u1) ],
// so qdot(t0) = qddot(t0) = 0  <=>  c0 = c1 = c2, and q(t0) = q0 pins that common value; likewise the last
// three control points at tf. Seed 000 eq. (3) asks for q = q0, qdot = qddot = 0 at both ends.
//
// The map from variables x to control points Q (num_joints x num_control_points) is affine:
//   Q(:, i) = X(:, slot(i))        if control point i is free (slot(i) >= 0),
//   Q(:, i) = start or end value   if it is pinned,
// where X = reshape(x, num_joints, num_slots) (column-major), i.e. x[slot * num_joints + joint].
// Slots are ordered in time, so x is "time-major": all joints of one slot are adjacent, and a quantity
// at time t depends on the contiguous range of x covering the (at most 5) slots whose basis functions
// are non-zero at t. That keeps Jacobians and normal equations block-banded.
#pragma once

#include <Eigen/Core>
#include <utility>
#include <vector>

#include "mimic/trajectory/bspline_basis.hpp"
#include "mimic/trajectory/bspline_trajectory.hpp"

namespace mimic::trajectory {

// Control points that an end condition governs: c0, c1, c2 fix q, qdot and qddot at t0.
inline constexpr int kPointsPerEnd = 3;

enum class EndCondition {
  kFixedAtRest,  // q = the given posture, qdot = qddot = 0: three control points pinned, no variable
  kAtRest,       // qdot = qddot = 0, q free: the three control points share one variable per joint
  kFree,         // nothing imposed: three independent variables per joint
};

struct EndSpec {
  EndCondition condition = EndCondition::kFree;
  Eigen::VectorXd position;  // used by kFixedAtRest only (size num_joints)

  static EndSpec fixed_at_rest(Eigen::VectorXd q) { return {EndCondition::kFixedAtRest, std::move(q)}; }
  static EndSpec at_rest() { return {EndCondition::kAtRest, {}}; }
  static EndSpec free() { return {EndCondition::kFree, {}}; }
};

class SplineParameterization {
 public:
  // Throws std::invalid_argument if a kFixedAtRest position does not have num_joints entries.
  SplineParameterization(QuarticBspline basis, int num_joints, EndSpec start, EndSpec end);

  const QuarticBspline& basis() const { return basis_; }
  int num_joints() const { return num_joints_; }
  // Distinct free control-point columns; num_variables() = num_slots() * num_joints().
  int num_slots() const { return num_slots_; }
  int num_variables() const { return num_slots_ * num_joints_; }
  int variable_index(int slot, int joint) const { return slot * num_joints_ + joint; }

  // Slot of control point i, or -1 when it is pinned to the start or end posture.
  int slot_of_control_point(int i) const { return slot_of_point_[i]; }
  const EndSpec& start() const { return start_; }
  const EndSpec& end() const { return end_; }
  // True when control point i is pinned to the start posture (false: free or pinned to the end).
  bool pinned_to_start(int i) const { return slot_of_point_[i] < 0 && i < kPointsPerEnd; }

  // Q(x): num_joints x num_control_points.
  Eigen::MatrixXd control_points(const Eigen::VectorXd& x) const;
  BsplineTrajectory trajectory(const Eigen::VectorXd& x) const;
  // The x whose control points are closest to Q: pinned columns are ignored, a slot shared by several
  // control points takes their mean. variables(control_points(x)) == x.
  Eigen::VectorXd variables(const Eigen::MatrixXd& control_points) const;

 private:
  QuarticBspline basis_;
  int num_joints_;
  EndSpec start_;
  EndSpec end_;
  std::vector<int> slot_of_point_;
  int num_slots_ = 0;
};

}  // namespace mimic::trajectory
