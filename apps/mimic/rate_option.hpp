// `--rate HZ` of the commands that read or write CSV motions (io/csv_motion.hpp), which carry no time: one
// option text per use, the range of the job's csv_rate (io::kCsvMinRate .. io::kCsvMaxRate).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "mimic/io/csv_motion.hpp"

namespace mimic::app {

// Adds --rate to `cmd`; `use` says what the rate is for and its default, e.g. "a .csv output (default: the
// job's csv_rate, else the motion's own)".
inline CLI::Option* add_rate_option(CLI::App* cmd, std::optional<double>& rate, const std::string& use) {
  return cmd->add_option("--rate", rate, "Rate (Hz) of " + use)
      ->check(CLI::Range(io::kCsvMinRate, io::kCsvMaxRate));
}

}  // namespace mimic::app
