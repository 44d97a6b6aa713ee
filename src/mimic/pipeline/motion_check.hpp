// Forwarder: the check of a motion against the robot moved to evaluation/check.hpp (issue 12, WP8).
// The old names keep compiling until WP14 moves their users and deletes this header.
#pragma once

#include "mimic/evaluation/check.hpp"

namespace mimic::pipeline {

using evaluation::check_motion;
using evaluation::CheckOptions;
using evaluation::CheckReport;
using evaluation::format_check_report;
using evaluation::JointPeak;
using evaluation::to_string;
using evaluation::Violation;
using evaluation::ViolationKind;

}  // namespace mimic::pipeline
