#include "mimic/core/atomic_file.hpp"

#include <unistd.h>

#include <fstream>
#include <random>

#include "mimic/core/error.hpp"

namespace mimic {
namespace {

std::filesystem::path temporary_sibling(const std::filesystem::path& path) {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  auto tmp = path;
  tmp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(rng() % 1000000);
  return tmp;
}

std::filesystem::path write_temporary(const std::filesystem::path& path,
                                      const std::function<void(std::ostream&)>& write) {
  // Like most command-line tools that take an output path (-o out/run3/boxing.pos), the folder is made.
  if (path.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) throw OutputError(path.string() + ": cannot create its folder (" + ec.message() + ")");
  }
  const auto tmp = temporary_sibling(path);
  try {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw OutputError(path.string() + ": cannot open for writing (permissions?)");
    write(out);
    out.flush();
    if (!out) throw OutputError(path.string() + ": write failed (disk full?)");
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw;
  }
  return tmp;
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write) {
  AtomicFileGroup group;
  group.add(path, write);
  group.commit();
}

AtomicFileGroup::~AtomicFileGroup() {
  for (const auto& p : pending_) {
    std::error_code ec;
    std::filesystem::remove(p.temporary, ec);
  }
}

void AtomicFileGroup::add(const std::filesystem::path& path,
                          const std::function<void(std::ostream&)>& write) {
  pending_.push_back({write_temporary(path, write), path});
}

void AtomicFileGroup::commit() {
  for (const auto& p : pending_) {
    std::error_code ec;
    std::filesystem::rename(p.temporary, p.target, ec);
    if (ec) throw OutputError(p.target.string() + ": cannot rename into place: " + ec.message());
  }
  pending_.clear();
}

}  // namespace mimic
