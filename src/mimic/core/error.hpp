// Error types shared by every module. Each carries a one-line message that names the file, the place
// in it and what was expected; the CLI maps the type to a documented exit code.
#pragma once

#include <stdexcept>
#include <string>

namespace mimic {

// Base of every mimic error.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A file (or option value) the user gave is missing, unreadable or malformed. Build the message with
// input_error_message() so that every reader words it the same way.
class InputError : public Error {
 public:
  using Error::Error;
};

// A bad command line that only the program can see: an output path that names one of the command's inputs
// or another of its outputs (io/output_paths.hpp), or an option value bounded by the robot (--columns).
// Like a command line CLI11 refuses, it is refused before anything is written.
class UsageError : public Error {
 public:
  using Error::Error;
};

// The problem an input asks for is larger than the documented budget (spline variables, samples, memory
// estimated before allocating it): refused with the size, the limit and the setting that makes it large.
// The CLI maps it to exit code 3 (bad input).
class BudgetError : public Error {
 public:
  using Error::Error;
};

// The robot model is unusable (bad URDF, missing joint or frame).
class ModelError : public Error {
 public:
  using Error::Error;
};

// The motion cannot be made to satisfy the robot's limits (solver failure, infeasible problem,
// `mimic check` violations).
class InfeasibleError : public Error {
 public:
  using Error::Error;
};

// An output file could not be written (directory missing, disk full, permission).
class OutputError : public Error {
 public:
  using Error::Error;
};

// "<file>:<place>: <what>", e.g. "boxing.bvh:12: expected '{' after JOINT name".
inline std::string input_error_message(const std::string& file, const std::string& place,
                                       const std::string& what) {
  std::string msg = file;
  if (!place.empty()) msg += ":" + place;
  msg += ": " + what;
  return msg;
}

}  // namespace mimic
