#include "mimic/pipeline/sample_budget.hpp"

#include <cmath>

#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"

namespace mimic::pipeline {

void check_sample_budget(const std::string& what, double duration, double rate, const std::string& setting) {
  const double samples = duration * rate + 1.0;
  if (!std::isfinite(samples) || samples > kMaxSamples) {
    throw BudgetError(what + ": " + core::format_number(duration) + " s at " + core::format_number(rate) +
                      " Hz (" + setting + ") is " + core::format_number(samples) +
                      " samples, above the budget of " + core::format_number(kMaxSamples) + " samples");
  }
}

}  // namespace mimic::pipeline
