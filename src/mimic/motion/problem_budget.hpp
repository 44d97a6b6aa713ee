// Size budget of the trajectory problems (issue 17): before a problem's basis, rows and Jacobians are
// allocated, its size is estimated from the sample count, the spline's control points and a bound on
// the rows per sample, and a problem whose estimate exceeds the budget is refused with a BudgetError
// (exit code 3) that names the sizes and the setting that makes them large. So no input (a knot spacing
// of 1e-9 s, a ten-hour clip, a motion with samples seconds apart) can make a command allocate more
// than a few GB.
//
// The estimate, in bytes, with N samples, c spline coordinates, K = ceil(D / h) + 4 control points per
// coordinate (quartic, duration D, knot spacing h) and V = c K variables:
//   bytes = kBytesPerSampleCoordinate c N + kBytesPerVariable c V
// The rows of every term are evaluated per sample and each touches the 5 basis functions of its time
// for at most the c coordinates: their values, Jacobian non-zeros (at the current and the trial point),
// their transposes and the per-thread sample data grow with c N. The banded normal matrix, its pattern
// and its LDL^T factor hold about 5 c non-zeros per variable. The two constants are the measured peak
// resident sizes of the shipped problems (docs/ARCHITECTURE.md, "Budgets") divided by c N and c V, with
// a margin, so the estimate is above what the process takes.
#pragma once

#include <string>

namespace mimic::motion {

// Estimated memory above which a problem is refused: 4 GiB.
inline constexpr double kProblemMemoryBudget = 4.0 * 1024.0 * 1024.0 * 1024.0;
inline constexpr double kBytesPerSampleCoordinate = 8192.0;
inline constexpr double kBytesPerVariable = 2048.0;

struct ProblemSize {
  std::string stage;          // "smoothing", "motion optimisation": starts the message
  std::string knot_setting;   // the setting the knot spacing comes from, "trajectory.knot_spacing"
  double duration = 0.0;      // s, the spline's interval
  double knot_spacing = 0.0;  // s, the largest knot spacing asked for
  long long samples = 0;      // time samples the rows are evaluated at
  int coordinates = 0;        // spline coordinates (active joints, base coordinates)
  int fixed_per_end = 3;      // control points per coordinate fixed at each end (position, velocity,
                              // acceleration at rest)
};

// Control points per coordinate of a clamped quartic B-spline of `knot_spacing` over `duration`, as
// trajectory::QuarticBspline counts them (in floating point, so that 1e-9 s does not overflow).
double control_points(double duration, double knot_spacing);

// Estimated peak memory of the problem in bytes (the formula above).
double estimated_bytes(const ProblemSize& size);

// Throws InputError when the knot spacing is not a positive finite number or the samples cannot
// determine the spline's free control points (fewer samples than free control points: the knot spacing is
// finer than the samples), and BudgetError when estimated_bytes exceeds kProblemMemoryBudget.
void check_problem_budget(const ProblemSize& size);

}  // namespace mimic::motion
