// The sample spacing a spline stage needs from a motion file: the smoothing fits B-splines with knots
// `knot_spacing` apart to the file's samples, and a knot interval without a sample leaves its control
// points undetermined. Checked when the file is read, so the error names the file and the place instead of
// failing inside the fit.
#pragma once

#include <string>
#include <vector>

namespace mimic::io {

// Throws InputError "file: samples 5 s apart (t = 0 .. 5 s) are farther apart than trajectory.knot_spacing
// (0.1 s): ..." when two consecutive `times` are more than `knot_spacing` apart.
void check_sample_spacing(const std::vector<double>& times, double knot_spacing, const std::string& file);

}  // namespace mimic::io
