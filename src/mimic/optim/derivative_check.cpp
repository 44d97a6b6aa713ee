#include "mimic/optim/derivative_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace mimic::optim {

namespace {

using ColumnMajor = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

struct Checker {
  const DerivativeCheckOptions& options;
  DerivativeCheckReport& report;
  std::vector<DerivativeMismatch> all_failures;

  void compare(const char* function, int row, int column, double analytic, double numeric, bool in_pattern) {
    ++report.checked_entries;
    const double allowed = options.absolute_tolerance +
                           options.relative_tolerance * std::max(std::abs(analytic), std::abs(numeric));
    const double error = std::abs(analytic - numeric);
    const double scaled = std::isfinite(error) ? error / allowed : INFINITY;
    report.max_scaled_error = std::max(report.max_scaled_error, scaled);
    if (scaled > 1.0) all_failures.push_back({function, row, column, analytic, numeric, !in_pattern, scaled});
  }

  // Column j of `analytic` against the central difference (plus - minus) / (2 h).
  void compare_column(const char* function, const ColumnMajor& analytic, int j, const Eigen::VectorXd& plus,
                      const Eigen::VectorXd& minus, double h, std::vector<char>& in_pattern,
                      Eigen::VectorXd& values) {
    const int rows = static_cast<int>(analytic.rows());
    if (rows == 0) return;
    values.setZero(rows);
    std::fill(in_pattern.begin(), in_pattern.begin() + rows, 0);
    for (ColumnMajor::InnerIterator it(analytic, j); it; ++it) {
      values[it.row()] = it.value();
      in_pattern[it.row()] = 1;
    }
    for (int r = 0; r < rows; ++r)
      compare(function, r, j, values[r], (plus[r] - minus[r]) / (2.0 * h), in_pattern[r]);
  }
};

}  // namespace

std::string DerivativeCheckReport::summary() const {
  char line[256];
  if (passed) {
    std::snprintf(line, sizeof line, "derivatives OK (%ld entries, max scaled error %.3g)", checked_entries,
                  max_scaled_error);
    return line;
  }
  std::string s;
  std::snprintf(line, sizeof line, "derivatives WRONG (%ld entries, max scaled error %.3g):", checked_entries,
                max_scaled_error);
  s = line;
  for (const DerivativeMismatch& f : failures) {
    std::snprintf(line, sizeof line, "\n  %s row %d, x[%d]: analytic %.9g, finite difference %.9g%s",
                  f.function.c_str(), f.row, f.column, f.analytic, f.numeric,
                  f.outside_pattern ? " (outside the sparsity pattern)" : "");
    s += line;
  }
  return s;
}

DerivativeCheckReport check_derivatives(Problem& problem, const Eigen::VectorXd& x,
                                        const DerivativeCheckOptions& options) {
  DerivativeCheckReport report;
  Checker checker{options, report, {}};
  const int n = problem.num_variables();
  Evaluation at_x = make_evaluation(problem);
  Evaluation plus = make_evaluation(problem);
  Evaluation minus = make_evaluation(problem);
  problem.evaluate(x, true, at_x);
  const ColumnMajor jr = at_x.residual_jacobian;
  const ColumnMajor jh = at_x.equality_jacobian;
  const ColumnMajor jg = at_x.inequality_jacobian;

  std::vector<int> columns = options.columns;
  if (columns.empty()) {
    columns.resize(n);
    std::iota(columns.begin(), columns.end(), 0);
  }
  const int max_rows =
      std::max({problem.num_residuals(), problem.num_equalities(), problem.num_inequalities(), 1});
  std::vector<char> in_pattern(max_rows);
  Eigen::VectorXd values;
  Eigen::VectorXd xp = x;
  for (int j : columns) {
    const double h = options.step * std::max(1.0, std::abs(x[j]));
    xp[j] = x[j] + h;
    problem.evaluate(xp, false, plus);
    xp[j] = x[j] - h;
    problem.evaluate(xp, false, minus);
    xp[j] = x[j];
    checker.compare_column("residual", jr, j, plus.residuals, minus.residuals, h, in_pattern, values);
    checker.compare_column("equality", jh, j, plus.equalities, minus.equalities, h, in_pattern, values);
    checker.compare_column("inequality", jg, j, plus.inequalities, minus.inequalities, h, in_pattern, values);
    if (problem.has_objective_term()) {
      checker.compare("objective term", 0, j, at_x.objective_gradient[j],
                      (plus.objective_term - minus.objective_term) / (2.0 * h), true);
    }
  }

  std::sort(checker.all_failures.begin(), checker.all_failures.end(),
            [](const DerivativeMismatch& a, const DerivativeMismatch& b) {
              return a.scaled_error > b.scaled_error;
            });
  report.passed = checker.all_failures.empty();
  const auto kept = std::min<std::size_t>(checker.all_failures.size(), std::max(0, options.max_reported));
  report.failures.assign(checker.all_failures.begin(), checker.all_failures.begin() + kept);
  return report;
}

}  // namespace mimic::optim
