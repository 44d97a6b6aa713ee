// Wall time per stage of a command's pipeline (the summary's "time per stage" line and the report's
// "stages_s"): each done() closes the stage that began at the previous one (or at construction).
#pragma once

#include <spdlog/spdlog.h>

#include <chrono>
#include <string>
#include <vector>

namespace mimic::pipeline {

struct StageTime {
  std::string stage;
  double seconds = 0.0;
};

class StageTimer {
 public:
  explicit StageTimer(std::vector<StageTime>& stages) : stages_(stages) {}
  void done(const std::string& stage) {
    const auto now = Clock::now();
    stages_.push_back({stage, std::chrono::duration<double>(now - start_).count()});
    spdlog::debug("stage {} took {:.3f} s", stage, stages_.back().seconds);
    start_ = now;
  }

 private:
  using Clock = std::chrono::steady_clock;
  std::vector<StageTime>& stages_;
  Clock::time_point start_ = Clock::now();
};

}  // namespace mimic::pipeline
