// Robot description files written by a test: the temporary file a test's YAML text goes to (error messages
// must name it), with the URDF path made absolute, loaded by the loader under test and removed afterwards.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "support/shared_data.hpp"

namespace mimic::model::testing {

inline std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The temporary file load_text() writes for the current test.
inline std::filesystem::path text_path() {
  return std::filesystem::temp_directory_path() /
         ("mimic_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
          ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".yaml");
}

// Writes `text` to text_path() (with `urdf: ../../models/hrp2.urdf` made absolute) and returns
// `load(path)`, removing the file whether it loads or throws.
template <class Load>
auto load_text(std::string text, Load load) {
  const std::filesystem::path p = text_path();
  text = std::regex_replace(text, std::regex("urdf: \\.\\./\\.\\./models/hrp2.urdf"),
                            "urdf: " + test::hrp2_urdf().string());
  std::ofstream(p) << text;
  struct Remove {
    std::filesystem::path p;
    ~Remove() { std::filesystem::remove(p); }
  } remove{p};
  return load(p.string());
}

}  // namespace mimic::model::testing
