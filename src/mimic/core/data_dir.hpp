// Where the shipped data lives: the folder holding config/ (robot descriptions, landmark presets, jobs),
// models/ (URDFs) and data/ (sample clips and motions). An installed mimic finds it relative to its own
// file, so it runs with no source tree; the build tree falls back to the source folder.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace mimic::core {

// Which rule of the search gave the data directory.
enum class DataDirOrigin { kEnvironment, kInstallPrefix, kSourceTree };

// "MIMIC_DATA_DIR", "install prefix" or "source tree", for messages and `mimic --version`.
const char* to_string(DataDirOrigin origin);

struct DataDir {
  std::filesystem::path path;
  DataDirOrigin origin = DataDirOrigin::kSourceTree;
};

// The inputs of the search, separated from the process so that tests can give their own.
struct DataDirSearch {
  std::optional<std::string> environment;  // $MIMIC_DATA_DIR when set and not empty
  std::filesystem::path binary;            // the file holding mimic's code (executable or extension module)
  std::filesystem::path source_tree;       // the source folder the library was built from
};

// True when `dir` holds config/robots/hrp2.yaml, the file every default of mimic starts from (the
// marker of a data directory).
bool holds_mimic_data(const std::filesystem::path& dir);

// The search, in order: (1) the environment value, which must hold the data (an InputError naming
// MIMIC_DATA_DIR otherwise: a wrong override is never silently replaced); (2) <parent>/share/mimic for
// every parent of `binary`, nearest first (P/bin/mimic and P/lib/python3/dist-packages/mimic/*.so both
// give P/share/mimic); (3) the source tree. An InputError when none holds the data.
DataDir find_data_dir(const DataDirSearch& search);

// The file holding this library's code, found with dladdr on one of its functions: the executable when
// mimic is linked into a program, the shared object when it is linked into one (the Python module).
// Empty when the loader cannot tell.
std::filesystem::path this_binary();

// find_data_dir for this process: $MIMIC_DATA_DIR, this_binary() and the source tree mimic was built from.
// Searched on every call (a few stat calls), so that a changed environment takes effect.
DataDir data_dir_info();
// data_dir_info().path.
std::filesystem::path data_dir();

}  // namespace mimic::core
