// Forwarder: the before/after metrics of `mimic smooth` moved to evaluation/metrics.hpp (issue 12, WP8).
// The old names keep compiling until WP11 dissolves smoothing/ and deletes this header.
#pragma once

#include "mimic/evaluation/metrics.hpp"

namespace mimic::smoothing {

using evaluation::evaluate_motion;
using evaluation::MotionEvaluation;

}  // namespace mimic::smoothing
