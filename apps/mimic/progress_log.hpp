// The progress line of long stages (IK over frames, solver iterations, ZMP passes), logged at info level so
// that -q silences it (`mimic batch` runs its jobs with -q: their logs keep warnings, errors and the
// summary).
#pragma once

#include <spdlog/spdlog.h>

#include <string>

#include "mimic/core/progress.hpp"

namespace mimic::app {

inline ProgressCallback progress_logger() {
  return [](const ProgressEvent& e) {
    std::string line = e.stage + ": ";
    line +=
        e.total > 0 ? fmt::format("{}/{}", e.iteration, e.total) : fmt::format("iteration {}", e.iteration);
    if (e.objective != 0.0 || e.violation != 0.0)
      line += fmt::format(", objective {:.6g}, violation {:.3g}", e.objective, e.violation);
    if (!e.message.empty()) line += ", " + e.message;
    spdlog::info("{}", line);
  };
}

}  // namespace mimic::app
