#include "mimic/terms/velocity_rows.hpp"

#include <stdexcept>

namespace mimic::terms {

VelocityRows::VelocityRows(const trajectory::SplineParameterization& parameterization,
                           const std::vector<int>& coordinates, const std::vector<double>& limits) {
  if (coordinates.size() != limits.size())
    throw std::invalid_argument("VelocityRows: one velocity limit per limited coordinate expected");
  const auto& knots = parameterization.basis().knots();
  const int points = parameterization.basis().num_control_points();
  const Eigen::VectorXd& start = parameterization.start().position;
  const Eigen::VectorXd& end = parameterization.end().position;
  for (int i = 0; i + 1 < points; ++i) {
    const int slot_a = parameterization.slot_of_control_point(i);
    const int slot_b = parameterization.slot_of_control_point(i + 1);
    if ((slot_a < 0 && slot_b < 0) || slot_a == slot_b) continue;  // constant difference (zero)
    const double c = trajectory::kDegree / (knots[i + 5] - knots[i + 1]);
    const double time = (knots[i + 2] + knots[i + 3] + knots[i + 4]) / 3.0;
    for (std::size_t k = 0; k < coordinates.size(); ++k) {
      const int coordinate = coordinates[k];
      Row row;
      row.joint = static_cast<int>(k);
      if (slot_a >= 0) {
        row.column_a = parameterization.variable_index(slot_a, coordinate);
      } else {
        row.pinned_a = parameterization.pinned_to_start(i) ? start[coordinate] : end[coordinate];
      }
      if (slot_b >= 0) {
        row.column_b = parameterization.variable_index(slot_b, coordinate);
      } else {
        row.pinned_b = parameterization.pinned_to_start(i + 1) ? start[coordinate] : end[coordinate];
      }
      row.scale = c / limits[k];
      row.time = time;
      rows_.push_back(row);
    }
  }
}

void VelocityRows::evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& inequalities,
                            optim::SparseMatrix* jacobian, int first_row) const {
  int row = first_row;
  for (const Row& v : rows_) {
    const double a = v.column_a >= 0 ? x[v.column_a] : v.pinned_a;
    const double b = v.column_b >= 0 ? x[v.column_b] : v.pinned_b;
    const double scaled = v.scale * (b - a);  // d_i / qdot_max
    inequalities[row] = scaled - 1.0;
    inequalities[row + 1] = -scaled - 1.0;
    if (jacobian) {
      for (int sign = 0; sign < 2; ++sign) {
        const double s = sign == 0 ? v.scale : -v.scale;
        double* values = optim::row_values(*jacobian, row + sign).data();
        // Column order of add_pattern (ascending: a slot precedes the next one).
        if (v.column_a >= 0) *values++ = -s;
        if (v.column_b >= 0) *values = s;
      }
    }
    row += 2;
  }
}

void VelocityRows::add_pattern(optim::PatternBuilder& builder, int first_row) const {
  int row = first_row;
  for (const Row& v : rows_) {
    for (int sign = 0; sign < 2; ++sign, ++row) {
      if (v.column_a >= 0) builder.add(row, v.column_a);
      if (v.column_b >= 0) builder.add(row, v.column_b);
    }
  }
}

}  // namespace mimic::terms
