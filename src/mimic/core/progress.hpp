// A progress sink for long stages (solver iterations, batch jobs). The CLI installs one that logs
// through spdlog unless -q; library code only calls report().
#pragma once

#include <functional>
#include <string>

namespace mimic {

struct ProgressEvent {
  std::string stage;       // e.g. "alm", "ipopt", "retarget"
  int iteration = 0;       // iteration or item index
  int total = 0;           // 0 when unknown
  double objective = 0.0;  // current objective, when meaningful
  double violation = 0.0;  // current constraint violation (max-norm), when meaningful
  std::string message;     // free text
};

using ProgressCallback = std::function<void(const ProgressEvent&)>;

}  // namespace mimic
