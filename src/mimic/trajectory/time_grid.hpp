// Uniform time grids (the 200 Hz output grid of .pos files, evaluation grids of the optimisation).
#pragma once

#include <vector>

namespace mimic::trajectory {

// Output rate of OpenHRP sequence files (docs/CONTRACTS.md): 200 Hz.
inline constexpr double kOutputPeriod = 0.005;

// t0, t0 + dt, ..., up to tf. tf itself is included when (tf - t0) / dt is a whole number up to 1e-9
// rounding; the times are computed as t0 + i * dt (no accumulated drift). Throws std::invalid_argument
// unless dt > 0 and tf >= t0.
std::vector<double> uniform_time_grid(double t0, double tf, double dt);

}  // namespace mimic::trajectory
