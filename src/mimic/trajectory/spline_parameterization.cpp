#include "mimic/trajectory/spline_parameterization.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace mimic::trajectory {

namespace {

void check_end(const EndSpec& end, int num_joints, const char* which) {
  if (end.condition == EndCondition::kFixedAtRest && end.position.size() != num_joints) {
    throw std::invalid_argument(std::string("SplineParameterization: ") + which + " posture has " +
                                std::to_string(end.position.size()) + " values for " +
                                std::to_string(num_joints) + " joints");
  }
}

}  // namespace

SplineParameterization::SplineParameterization(QuarticBspline basis, int num_joints, EndSpec start,
                                               EndSpec end)
    : basis_(std::move(basis)), num_joints_(num_joints), start_(std::move(start)), end_(std::move(end)) {
  if (num_joints <= 0) throw std::invalid_argument("SplineParameterization: need at least one joint");
  check_end(start_, num_joints, "start");
  check_end(end_, num_joints, "end");
  const int n = basis_.num_control_points();  // >= 6 (two intervals), so the end groups are disjoint
  slot_of_point_.assign(n, -1);
  int slot = 0;
  for (int i = 0; i < n; ++i) {
    const bool in_start = i < kPointsPerEnd;
    const bool in_end = i >= n - kPointsPerEnd;
    const EndCondition c = in_start ? start_.condition : in_end ? end_.condition : EndCondition::kFree;
    if (c == EndCondition::kFixedAtRest) continue;
    // The three points of an at-rest end share the slot of the first one.
    const bool shares_previous =
        c == EndCondition::kAtRest && ((in_start && i > 0) || (in_end && i > n - kPointsPerEnd));
    slot_of_point_[i] = shares_previous ? slot - 1 : slot++;
  }
  num_slots_ = slot;
}

Eigen::MatrixXd SplineParameterization::control_points(const Eigen::VectorXd& x) const {
  if (x.size() != num_variables()) {
    throw std::invalid_argument("SplineParameterization: x has " + std::to_string(x.size()) +
                                " entries, expected " + std::to_string(num_variables()));
  }
  const Eigen::Map<const Eigen::MatrixXd> free(x.data(), num_joints_, num_slots_);
  const int n = basis_.num_control_points();
  Eigen::MatrixXd q(num_joints_, n);
  for (int i = 0; i < n; ++i) {
    const int s = slot_of_point_[i];
    if (s >= 0) {
      q.col(i) = free.col(s);
    } else {
      q.col(i) = pinned_to_start(i) ? start_.position : end_.position;
    }
  }
  return q;
}

BsplineTrajectory SplineParameterization::trajectory(const Eigen::VectorXd& x) const {
  return BsplineTrajectory(basis_, control_points(x));
}

Eigen::VectorXd SplineParameterization::variables(const Eigen::MatrixXd& control_points) const {
  if (control_points.rows() != num_joints_ || control_points.cols() != basis_.num_control_points()) {
    throw std::invalid_argument("SplineParameterization: control points must be " +
                                std::to_string(num_joints_) + " x " +
                                std::to_string(basis_.num_control_points()));
  }
  Eigen::VectorXd x = Eigen::VectorXd::Zero(num_variables());
  Eigen::Map<Eigen::MatrixXd> free(x.data(), num_joints_, num_slots_);
  Eigen::VectorXi count = Eigen::VectorXi::Zero(num_slots_);
  for (int i = 0; i < basis_.num_control_points(); ++i) {
    const int s = slot_of_point_[i];
    if (s < 0) continue;
    free.col(s) += control_points.col(i);
    ++count[s];
  }
  for (int s = 0; s < num_slots_; ++s) free.col(s) /= count[s];
  return x;
}

}  // namespace mimic::trajectory
