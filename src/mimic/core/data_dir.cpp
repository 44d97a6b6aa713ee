#include "mimic/core/data_dir.hpp"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <system_error>

#include "mimic/core/error.hpp"

#ifndef MIMIC_SOURCE_DIR
#error "MIMIC_SOURCE_DIR must name the source tree (set by cmake/MimicModules.cmake for mimic_core only)"
#endif

namespace mimic::core {

namespace fs = std::filesystem;

const char* to_string(DataDirOrigin origin) {
  switch (origin) {
    case DataDirOrigin::kEnvironment:
      return "MIMIC_DATA_DIR";
    case DataDirOrigin::kInstallPrefix:
      return "install prefix";
    case DataDirOrigin::kSourceTree:
      return "source tree";
  }
  return "?";
}

bool holds_mimic_data(const fs::path& dir) {
  std::error_code ec;
  return !dir.empty() && fs::is_regular_file(dir / "config" / "robots" / "hrp2.yaml", ec);
}

DataDir find_data_dir(const DataDirSearch& search) {
  if (search.environment) {
    const fs::path dir(*search.environment);
    if (!holds_mimic_data(dir)) {
      throw InputError("MIMIC_DATA_DIR=" + *search.environment +
                       ": not a mimic data directory (no config/robots/hrp2.yaml in it)");
    }
    return {fs::absolute(dir).lexically_normal(), DataDirOrigin::kEnvironment};
  }
  if (!search.binary.empty()) {
    // parent_path() of a root is the root itself: stop there.
    for (fs::path dir = search.binary.parent_path(); !dir.empty(); dir = dir.parent_path()) {
      const fs::path candidate = dir / "share" / "mimic";
      if (holds_mimic_data(candidate)) return {candidate, DataDirOrigin::kInstallPrefix};
      if (dir == dir.root_path()) break;
    }
  }
  if (holds_mimic_data(search.source_tree)) return {search.source_tree, DataDirOrigin::kSourceTree};
  throw InputError("no mimic data directory found (looked for share/mimic above " +
                   (search.binary.empty() ? std::string("the program") : search.binary.string()) +
                   " and in the source tree " + search.source_tree.string() +
                   "): set MIMIC_DATA_DIR to the folder holding config/, models/ and data/");
}

fs::path this_binary() {
  Dl_info info{};
  link_map* map = nullptr;
  // Any function of this library will do: its address lies in the file that holds the library's code.
  if (dladdr1(reinterpret_cast<void*>(&this_binary), &info, reinterpret_cast<void**>(&map),
              RTLD_DL_LINKMAP) == 0 ||
      map == nullptr) {
    return {};
  }
  // The main program's link map has an empty name (glibc reports argv[0] as dli_fname, which may be a
  // bare name found on PATH): the kernel knows its file.
  fs::path file = map->l_name && *map->l_name ? fs::path(map->l_name) : fs::path("/proc/self/exe");
  std::error_code ec;
  fs::path canonical = fs::canonical(file, ec);
  return ec ? fs::path() : canonical;
}

DataDir data_dir_info() {
  DataDirSearch search;
  if (const char* env = std::getenv("MIMIC_DATA_DIR"); env && *env) search.environment = env;
  search.binary = this_binary();
  search.source_tree = MIMIC_SOURCE_DIR;
  return find_data_dir(search);
}

fs::path data_dir() { return data_dir_info().path; }

}  // namespace mimic::core
