// Access to the third-party data in ../shared (mocap clips, reference). The data sits next to the
// repository in CI but may be absent from a user's clone: tests then skip with a visible message, unless
// MIMIC_REQUIRE_SHARED_DATA=1 (set by .ci/run) turns the absence into a failure.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace mimic::test {

inline std::filesystem::path shared_dir() {
  if (const char* env = std::getenv("MIMIC_SHARED_DIR"); env && *env) return env;
  return MIMIC_SHARED_DIR_DEFAULT;
}

inline bool shared_data_required() {
  const char* env = std::getenv("MIMIC_REQUIRE_SHARED_DATA");
  return env && std::string(env) == "1";
}

inline std::filesystem::path source_dir() { return MIMIC_SOURCE_DIR; }
inline std::filesystem::path hrp2_urdf() { return source_dir() / "models" / "hrp2.urdf"; }

}  // namespace mimic::test

// Use at the top of a test body: resolves `var` to ../shared/<relative> or skips (fails in CI).
#define MIMIC_REQUIRE_SHARED(var, relative)                                                          \
  const std::filesystem::path var = ::mimic::test::shared_dir() / (relative);                       \
  if (!std::filesystem::exists(var)) {                                                               \
    if (::mimic::test::shared_data_required())                                                       \
      FAIL() << "shared data missing (MIMIC_REQUIRE_SHARED_DATA=1): " << var;                        \
    GTEST_SKIP() << "shared data not found, skipping: " << var                                       \
                 << " (set MIMIC_SHARED_DIR to the folder holding mocap/ and reference/)";          \
  }
