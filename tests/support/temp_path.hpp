// Temporary paths for tests. ctest runs test processes in parallel (one process per test case), so a
// fixed name under /tmp races between them: every path carries the process id.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace mimic::test {

inline std::filesystem::path unique_temp_path(const std::string& stem, const std::string& extension = "") {
  return std::filesystem::temp_directory_path() /
         ("mimic_test_" + stem + "_" + std::to_string(::getpid()) + extension);
}

}  // namespace mimic::test
