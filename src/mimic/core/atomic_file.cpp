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
  namespace fs = std::filesystem;
  // Each existing target is first kept under a second name (a hard link, else a copy), so that a failure
  // part-way (a later target is a folder, a rename is refused) can put every earlier target back as it
  // was: all of the group or none of it. The target itself never disappears: the rename of the temporary
  // replaces it in one step, as does the rename back.
  struct Placed {
    fs::path target, previous;  // previous: where the file it replaced waits; empty when there was none
  };
  std::vector<Placed> placed;
  auto roll_back = [&] {
    for (auto it = placed.rbegin(); it != placed.rend(); ++it) {
      std::error_code ec;
      if (it->previous.empty()) {
        fs::remove(it->target, ec);
      } else {
        fs::rename(it->previous, it->target, ec);
      }
    }
    for (const auto& p : pending_) {  // the temporaries not renamed yet
      std::error_code ec;
      fs::remove(p.temporary, ec);
    }
    pending_.clear();
  };
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    // Copies: roll_back() clears pending_.
    const fs::path target = pending_[i].target, temporary = pending_[i].temporary;
    std::error_code ec;
    Placed step{target, {}};
    const fs::file_status status = fs::symlink_status(target, ec);
    if (fs::is_directory(status)) {
      roll_back();
      throw OutputError(target.string() + ": cannot write, a folder has that name");
    }
    if (fs::exists(status)) {
      step.previous = temporary_sibling(target);
      step.previous += ".previous";
      fs::create_hard_link(target, step.previous, ec);
      if (ec) {
        ec.clear();
        fs::copy_file(target, step.previous, ec);
      }
      if (ec) {
        roll_back();
        throw OutputError(target.string() +
                          ": cannot keep the existing file while replacing it: " + ec.message());
      }
    }
    fs::rename(temporary, target, ec);
    if (ec) {
      if (!step.previous.empty()) {
        std::error_code ignored;
        fs::remove(step.previous, ignored);  // the target was not touched
      }
      roll_back();
      throw OutputError(target.string() + ": cannot rename into place: " + ec.message());
    }
    placed.push_back(std::move(step));
  }
  for (const auto& step : placed) {
    std::error_code ignored;
    if (!step.previous.empty()) fs::remove(step.previous, ignored);
  }
  pending_.clear();
}

}  // namespace mimic
