// `mimic check`: a motion read from its files for a robot and checked against its limits, balance and
// geometry (evaluation/check.hpp), at the motion's own sample rate.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mimic/core/thread_pool.hpp"
#include "mimic/evaluation/check.hpp"
#include "mimic/model/contact_phase.hpp"
#include "mimic/pipeline/robot.hpp"

namespace mimic::pipeline {

// The motion X.pos (or its base name X, with X.waist / X.hip beside it when present) as sampled_motion()
// reads it for `robot` (phases from `contacts` when given, else detected), checked with `options`; a
// .csv motion read at `csv_rate` (read_sampled_motion). The samples are checked on `pool` (may be null);
// the report does not depend on it.
evaluation::Report check_motion_files(const Robot& robot, const std::string& motion,
                                      const std::vector<model::ContactInterval>& contacts,
                                      const evaluation::CheckOptions& options,
                                      std::optional<double> csv_rate = std::nullopt,
                                      core::ThreadPool* pool = nullptr);

}  // namespace mimic::pipeline
