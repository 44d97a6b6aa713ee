// The error of a problem above its size budget (issue 17). Beside core/error.hpp's types, in a header of
// its own, included only by the budget checks and the CLI's exit-code mapping.
#pragma once

#include "mimic/core/error.hpp"

namespace mimic {

// The problem an input asks for is larger than the documented budget (spline variables, samples, memory
// estimated before allocating it): refused with the size, the limit and the setting that makes it large.
// The CLI maps it to exit code 3 (bad input).
class BudgetError : public Error {
 public:
  using Error::Error;
};

}  // namespace mimic
