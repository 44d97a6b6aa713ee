#include "mimic/motion/problem_budget.hpp"

#include <cmath>

#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"

namespace mimic::motion {

namespace {

std::string gib(double bytes) { return core::format_number(bytes / (1024.0 * 1024.0 * 1024.0)) + " GiB"; }

}  // namespace

double control_points(double duration, double knot_spacing) {
  return std::ceil(duration / knot_spacing - 1e-9) + 4.0;
}

double estimated_bytes(const ProblemSize& size) {
  const double n = static_cast<double>(size.samples), c = size.coordinates;
  const double variables = c * control_points(size.duration, size.knot_spacing);
  return kBytesPerSampleCoordinate * c * n + kBytesPerVariable * c * variables;
}

void check_problem_budget(const ProblemSize& size) {
  if (!(size.knot_spacing > 0.0) || !std::isfinite(size.knot_spacing)) {
    throw InputError(size.stage + ": " + size.knot_setting + ": expected a positive knot spacing, found " +
                     core::format_number(size.knot_spacing) + " s");
  }
  const double points = control_points(size.duration, size.knot_spacing);
  const double free_points = points - 2.0 * size.fixed_per_end;
  if (free_points > static_cast<double>(size.samples)) {
    throw InputError(size.stage + ": " + size.knot_setting + ": knots every " +
                     core::format_number(size.knot_spacing) + " s over " +
                     core::format_number(size.duration) + " s give " + core::format_number(free_points) +
                     " free control points, more than the " + std::to_string(size.samples) +
                     " samples of the motion can determine (a knot spacing finer than the samples')");
  }
  const double bytes = estimated_bytes(size);
  if (bytes > kProblemMemoryBudget) {
    throw BudgetError(size.stage + ": the problem is too large: " + std::to_string(size.samples) +
                      " samples over " + core::format_number(size.duration) + " s, " +
                      core::format_number(points * size.coordinates) + " spline variables (" +
                      size.knot_setting + " " + core::format_number(size.knot_spacing) + " s), about " +
                      gib(bytes) + " of memory estimated, above the budget of " + gib(kProblemMemoryBudget) +
                      " (shorten the motion or raise the knot spacing)");
  }
}

}  // namespace mimic::motion
