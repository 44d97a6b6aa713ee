// Atomic output: every file mimic writes goes to a temporary file beside the target and is renamed
// into place only when complete, so a failure never leaves a half-written output behind.
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace mimic {

// Writes `path` by calling `write` on a stream to a temporary sibling, then renames it over `path`.
// Throws OutputError (and removes the temporary) if the stream fails or `write` throws.
void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write);

// A group of outputs that appear together or not at all (e.g. X.pos, X.waist, X.zmp): add() writes
// each to its temporary; commit() renames them all. Destroying an uncommitted group removes the
// temporaries.
class AtomicFileGroup {
 public:
  AtomicFileGroup() = default;
  AtomicFileGroup(const AtomicFileGroup&) = delete;
  AtomicFileGroup& operator=(const AtomicFileGroup&) = delete;
  ~AtomicFileGroup();

  void add(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write);
  void commit();

 private:
  struct Pending {
    std::filesystem::path temporary;
    std::filesystem::path target;
  };
  std::vector<Pending> pending_;
};

}  // namespace mimic
