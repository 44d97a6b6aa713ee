// The printed summary and the JSON report of `mimic smooth`. The report's "summary" object carries the
// headline numbers the batch runner reads (pipeline/batch.cpp): torque_integral_before / _after,
// reduction, min_zmp_margin_m, max_slip_m, peak_torque_ratio, solver_iterations, seconds, and the geometry
// keys of pipeline/geometry_report.hpp.
#pragma once

#include <string>

#include "mimic/io/job.hpp"
#include "mimic/io/json.hpp"
#include "mimic/model/model.hpp"
#include "mimic/pipeline/smooth.hpp"

namespace mimic::pipeline {

// Relative reduction of the torque integral, (before - after) / before.
double torque_reduction(const SmoothResult& result);

// Human-readable lines for stdout: torque integral before / after, peak |torque| of the 12 leg joints and
// of the worst other joints, slip, ZMP margin, the geometry (closest pair, lowest sole corner, after and
// planned), solver status / iterations / time.
std::string format_smooth_summary(const model::Model& model, const SmoothResult& result);

io::Json smooth_report_json(const io::JobConfig& job, const model::Model& model, const SmoothResult& result);

}  // namespace mimic::pipeline
