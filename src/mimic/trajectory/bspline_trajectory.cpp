#include "mimic/trajectory/bspline_trajectory.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace mimic::trajectory {

namespace {

// Column `order` of the window as an Eigen vector, so that q = Q.middleCols(first, 5) * window.
Eigen::Map<const Eigen::Matrix<double, kOrder, 1>> window_column(const BasisWindow& w, int order) {
  return Eigen::Map<const Eigen::Matrix<double, kOrder, 1>>(w.derivative[order].data());
}

}  // namespace

BsplineTrajectory::BsplineTrajectory(QuarticBspline basis, Eigen::MatrixXd control_points)
    : basis_(std::move(basis)), control_points_(std::move(control_points)) {
  if (control_points_.cols() != basis_.num_control_points()) {
    throw std::invalid_argument("BsplineTrajectory: " + std::to_string(control_points_.cols()) +
                                " control points for a basis of " +
                                std::to_string(basis_.num_control_points()));
  }
}

void BsplineTrajectory::evaluate(double t, Eigen::VectorXd& q, Eigen::VectorXd& qdot,
                                 Eigen::VectorXd& qddot) const {
  const BasisWindow w = basis_.evaluate(t);
  const auto block = control_points_.middleCols<kOrder>(w.first);
  q.noalias() = block * window_column(w, 0);
  qdot.noalias() = block * window_column(w, 1);
  qddot.noalias() = block * window_column(w, 2);
}

Eigen::VectorXd BsplineTrajectory::derivative(double t, int order) const {
  const BasisWindow w = basis_.evaluate(t);
  return control_points_.middleCols<kOrder>(w.first) * window_column(w, order);
}

Eigen::VectorXd BsplineTrajectory::position(double t) const { return derivative(t, 0); }
Eigen::VectorXd BsplineTrajectory::velocity(double t) const { return derivative(t, 1); }
Eigen::VectorXd BsplineTrajectory::acceleration(double t) const { return derivative(t, 2); }

JointSamples BsplineTrajectory::sample(std::span<const double> times) const {
  const auto n = static_cast<Eigen::Index>(times.size());
  JointSamples s{Eigen::MatrixXd(num_joints(), n), Eigen::MatrixXd(num_joints(), n),
                 Eigen::MatrixXd(num_joints(), n)};
  for (Eigen::Index i = 0; i < n; ++i) {
    const BasisWindow w = basis_.evaluate(times[i]);
    const auto block = control_points_.middleCols<kOrder>(w.first);
    s.q.col(i).noalias() = block * window_column(w, 0);
    s.qdot.col(i).noalias() = block * window_column(w, 1);
    s.qddot.col(i).noalias() = block * window_column(w, 2);
  }
  return s;
}

}  // namespace mimic::trajectory
