// Joint velocity limits of a quartic B-spline trajectory as linear inequalities on its control points,
// shared by the motion problem (seed 000) and the smoothing problem (seed 001). The one term written on the
// spline's control points rather than on a time sample (term.hpp), so it is not a Term: the bound holds at
// every t, not only at the samples.
//
// qdot is a cubic B-spline on the same knots whose control points are
// d_i = 4 (c_{i+1} - c_i) / (u_{i+5} - u_{i+1}) (de Boor; The NURBS Book eq. (3.9)); |d_i| <= qdot_max,
// i.e. g = +-d_i / qdot_max - 1 <= 0 (two rows per d_i, linear in x), bounds |qdot(t)| for EVERY t by the
// convex-hull property. Sufficient and slightly conservative (the control polygon over-estimates peaks by a
// few percent at 0.1 s knots). Differences of two pinned control points (constant) make no row.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "mimic/optim/sparse.hpp"
#include "mimic/trajectory/spline_parameterization.hpp"

namespace mimic::terms {

class VelocityRows {
 public:
  VelocityRows() = default;  // no rows
  // `coordinates[k]`: the parameterization coordinate (joint column) of the k-th limited joint;
  // `limits[k]`: its velocity limit qdot_max (> 0).
  VelocityRows(const trajectory::SplineParameterization& parameterization,
               const std::vector<int>& coordinates, const std::vector<double>& limits);

  int num_rows() const { return 2 * static_cast<int>(rows_.size()); }

  // Writes rows [first_row, first_row + num_rows()) of the inequalities and, with `jacobian`, the values of
  // those rows of the (row-major, pattern from add_pattern) inequality Jacobian.
  void evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& inequalities, optim::SparseMatrix* jacobian,
                int first_row) const;
  void add_pattern(optim::PatternBuilder& builder, int first_row) const;

  // For messages: which limited joint (index into `coordinates`) row `row` (0-based, relative) limits, and
  // the Greville abscissa of its d_i (s).
  int limited_joint(int row) const { return rows_[static_cast<std::size_t>(row / 2)].joint; }
  double time(int row) const { return rows_[static_cast<std::size_t>(row / 2)].time; }

 private:
  struct Row {
    int joint = 0;                          // index into the limited joints
    int column_a = -1, column_b = -1;       // variable indices of c_i, c_{i+1} (-1: pinned)
    double pinned_a = 0.0, pinned_b = 0.0;  // their values when pinned
    double scale = 0.0;                     // 4 / (u_{i+5} - u_{i+1}) / qdot_max
    double time = 0.0;
  };
  std::vector<Row> rows_;
};

}  // namespace mimic::terms
