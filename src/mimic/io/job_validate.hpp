// Value checks of a JobConfig, shared by load_job() (which knows the file and line of every key) and
// validate_job() (for jobs assembled on the command line, which do not).
#pragma once

#include <map>
#include <string>

#include "mimic/io/job.hpp"

namespace mimic::io::detail {

// Where the keys of a job came from. An empty `file` means the command line: messages then name only
// the key path.
struct KeyOrigins {
  std::string file;
  const std::map<std::string, int>* lines = nullptr;  // key path -> 1-based line
};

void validate_job(const JobConfig& job, const KeyOrigins& origins);

}  // namespace mimic::io::detail
