// Least-squares fit of a sampled reference (e.g. the retargeted mocap q_c(t)) by a spline of a given
// parameterization: the initial guess of the optimisation. The boundary structure is kept (pinned
// postures stay pinned, at-rest ends stay at rest), so the guess is an admissible point of the
// problem.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/trajectory/spline_parameterization.hpp"

namespace mimic::trajectory {

// Returns the x minimising sum_n |q(t_n; x) - reference.col(n)|^2. reference is num_joints x times.size().
// The joints decouple and share one normal matrix (B^T B over the free slots, banded with half-bandwidth
// 4), so it is factorised once (sparse LDL^T) and solved for all joints. Throws std::invalid_argument
// when the samples do not determine every free control point (too few samples within its support).
Eigen::VectorXd fit_spline(const SplineParameterization& parameterization, const std::vector<double>& times,
                           const Eigen::MatrixXd& reference);

}  // namespace mimic::trajectory
