#include "mimic/core/data_dir.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>

#include "mimic/core/error.hpp"
#include "support/temp_path.hpp"

namespace fs = std::filesystem;
using mimic::core::DataDirOrigin;
using mimic::core::DataDirSearch;
using mimic::core::find_data_dir;

namespace {

fs::path fresh_dir(const std::string& name) {
  const auto dir = mimic::test::unique_temp_path("data_dir_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A folder that passes for a data directory: the marker file only (the search reads nothing else).
fs::path make_data(const fs::path& dir) {
  fs::create_directories(dir / "config" / "robots");
  std::ofstream(dir / "config" / "robots" / "hrp2.yaml") << "# marker\n";
  return dir;
}

// Sets (or unsets, for nullptr) MIMIC_DATA_DIR for one scope and restores the previous value.
class ScopedDataDirVariable {
 public:
  explicit ScopedDataDirVariable(const char* value) {
    if (const char* old = std::getenv("MIMIC_DATA_DIR")) old_ = old;
    if (value) {
      ::setenv("MIMIC_DATA_DIR", value, 1);
    } else {
      ::unsetenv("MIMIC_DATA_DIR");
    }
  }
  ~ScopedDataDirVariable() {
    if (old_) {
      ::setenv("MIMIC_DATA_DIR", old_->c_str(), 1);
    } else {
      ::unsetenv("MIMIC_DATA_DIR");
    }
  }

 private:
  std::optional<std::string> old_;
};

}  // namespace

TEST(DataDir, EnvironmentOverridesInstallPrefixAndSourceTree) {
  const auto root = fresh_dir("env");
  const auto env = make_data(root / "mine");
  make_data(root / "prefix" / "share" / "mimic");
  const auto source = make_data(root / "source");
  DataDirSearch search{env.string(), root / "prefix" / "bin" / "mimic", source};
  const auto found = find_data_dir(search);
  EXPECT_EQ(found.path, env);
  EXPECT_EQ(found.origin, DataDirOrigin::kEnvironment);
  EXPECT_STREQ(mimic::core::to_string(found.origin), "MIMIC_DATA_DIR");
}

TEST(DataDir, BadEnvironmentValueIsAnErrorNamingTheVariable) {
  const auto root = fresh_dir("bad_env");
  const auto source = make_data(root / "source");
  // A wrong override must not fall back silently to another installation: the run would read other data.
  DataDirSearch search{(root / "empty").string(), {}, source};
  try {
    find_data_dir(search);
    FAIL() << "expected an InputError";
  } catch (const mimic::InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("MIMIC_DATA_DIR=" + (root / "empty").string()), std::string::npos) << message;
    EXPECT_NE(message.find("config/robots/hrp2.yaml"), std::string::npos) << message;
  }
}

TEST(DataDir, ExecutableFindsShareMimicOfItsPrefix) {
  const auto root = fresh_dir("exe");
  const auto share = make_data(root / "prefix" / "share" / "mimic");
  const auto source = make_data(root / "source");
  const auto found = find_data_dir({std::nullopt, root / "prefix" / "bin" / "mimic", source});
  EXPECT_EQ(found.path, share);
  EXPECT_EQ(found.origin, DataDirOrigin::kInstallPrefix);
}

TEST(DataDir, PythonModuleFindsShareMimicOfItsPrefix) {
  const auto root = fresh_dir("python");
  const auto share = make_data(root / "prefix" / "share" / "mimic");
  const auto module = root / "prefix" / "lib" / "python3" / "dist-packages" / "mimic" / "_mimic.so";
  const auto found = find_data_dir({std::nullopt, module, root / "no-source"});
  EXPECT_EQ(found.path, share);
  EXPECT_EQ(found.origin, DataDirOrigin::kInstallPrefix);
}

TEST(DataDir, BuildTreeFallsBackToTheSourceTree) {
  const auto root = fresh_dir("build");
  const auto source = make_data(root / "source");
  const auto found = find_data_dir({std::nullopt, root / "source" / "build" / "bin" / "mimic", source});
  EXPECT_EQ(found.path, source);
  EXPECT_EQ(found.origin, DataDirOrigin::kSourceTree);
}

TEST(DataDir, NoDataAnywhereIsAnErrorSayingWhatToSet) {
  const auto root = fresh_dir("none");
  try {
    find_data_dir({std::nullopt, root / "bin" / "mimic", root / "gone"});
    FAIL() << "expected an InputError";
  } catch (const mimic::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("set MIMIC_DATA_DIR"), std::string::npos) << e.what();
  }
}

// The same order through the process: this test executable lives in the build tree, with no share/mimic
// above it, so without the variable the source tree it was built from is used.
TEST(DataDir, ThisProcessUsesTheSourceTreeUnlessTheVariableIsSet) {
  {
    ScopedDataDirVariable unset(nullptr);
    const auto found = mimic::core::data_dir_info();
    EXPECT_EQ(fs::canonical(found.path), fs::canonical(MIMIC_SOURCE_DIR));
    EXPECT_EQ(found.origin, DataDirOrigin::kSourceTree);
  }
  const auto root = fresh_dir("process");
  const auto mine = make_data(root / "mine");
  {
    ScopedDataDirVariable set(mine.c_str());
    EXPECT_EQ(mimic::core::data_dir(), mine);
  }
  {
    ScopedDataDirVariable set((root / "nothing").c_str());
    EXPECT_THROW(mimic::core::data_dir(), mimic::InputError);
  }
  {
    ScopedDataDirVariable empty("");  // empty counts as unset, as for MIMIC_CONFIG_DIR
    EXPECT_EQ(mimic::core::data_dir_info().origin, DataDirOrigin::kSourceTree);
  }
}

// The core library is linked statically into this test, so the file holding its code is the executable.
TEST(DataDir, ThisBinaryIsTheExecutableHoldingTheCode) {
  EXPECT_EQ(mimic::core::this_binary(), fs::canonical("/proc/self/exe"));
}
