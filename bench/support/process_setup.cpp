// Every bench program runs its process as the `mimic` command does (apps/mimic/main.cpp), before main():
// freed memory stays in the heap (core/allocator.hpp), so that the timings are the command's.
#include "mimic/core/allocator.hpp"

namespace {

const bool kProcessSetUp = [] {
  mimic::core::keep_freed_memory();
  return true;
}();

}  // namespace
