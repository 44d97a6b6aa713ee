// Tests that need an external program (gnuplot for `mimic plot`). Such a program is installed by
// scripts/setup.sh but may be absent from a user's machine: the test then skips with a visible message,
// unless MIMIC_REQUIRE_SHARED_DATA=1 (set by .ci/run: "everything the tests need is here") turns the
// absence into a failure, as for the third-party data (support/shared_data.hpp).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "mimic/pipeline/plot.hpp"
#include "support/shared_data.hpp"

namespace mimic::test {

// The program's absolute path from a PATH lookup (the same lookup `mimic plot` does), or empty.
inline std::filesystem::path required_tool_path(const std::string& program) {
  return pipeline::find_program(program);
}

}  // namespace mimic::test

// Use at the top of a test body: skips (fails under MIMIC_REQUIRE_SHARED_DATA=1) when `program` is not on
// PATH; `package` names the Debian package that provides it.
#define MIMIC_REQUIRE_TOOL(program, package)                                                              \
  if (::mimic::test::required_tool_path(program).empty()) {                                               \
    if (::mimic::test::shared_data_required())                                                            \
      FAIL() << (program) << " not found on PATH (MIMIC_REQUIRE_SHARED_DATA=1): install the Debian "      \
             << "package " << (package) << " (scripts/setup.sh does)";                                    \
    GTEST_SKIP() << (program) << " not found on PATH, skipping (install the Debian package " << (package) \
                 << ")";                                                                                  \
  }
