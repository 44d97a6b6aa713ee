// Helpers shared by the job tests (tests/io/job_ranges.cpp, tests/io/loop_repeats.cpp): the smallest
// valid job text and the message of the InputError a job text raises.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "mimic/core/error.hpp"
#include "mimic/io/job.hpp"

namespace mimic::io::test {

inline const std::string kMinimal = "job: retarget\ninput: clip.bvh\noutput: out.pos\n";

// The InputError's message of parsing `yaml` as "job.yaml"; a test failure when it parses.
inline std::string error_of(const std::string& yaml) {
  try {
    parse_job(yaml, "job.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected InputError for\n" << yaml;
  return "";
}

}  // namespace mimic::io::test
