// keep_freed_memory (core/allocator.hpp): a block freed and allocated again is reused without page faults.
// A 64 MiB block is past glibc's largest dynamic mmap threshold (32 MiB), so by default it is a mapping of
// its own, unmapped on free, and touching it again faults every page in afresh (16384 faults of 4 KiB).
// With freed memory kept in the heap the second allocation gets the same pages back. Each test file is
// its own process, so the process-wide setting touches no other test.
#include "mimic/core/allocator.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdlib>
#include <cstring>

namespace {

long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// Page faults taken while allocating, filling and freeing `bytes`.
long faults_of_a_fresh_block(std::size_t bytes) {
  const long before = minor_faults();
  void* block = std::malloc(bytes);
  EXPECT_NE(block, nullptr);
  std::memset(block, 1, bytes);
  // The volatile read keeps the fill from being optimised away with the free.
  EXPECT_EQ(static_cast<volatile unsigned char*>(block)[bytes - 1], 1);
  std::free(block);
  return minor_faults() - before;
}

TEST(KeepFreedMemory, AFreedBlockIsReusedWithoutPageFaults) {
#if defined(__GLIBC__)
  constexpr std::size_t kBytes = 64u << 20;
  constexpr long kPages = static_cast<long>(kBytes / 4096);
  // Without the setting every round faults the whole block in. A kernel that backs the block with huge
  // pages (transparent_hugepage "always") takes 512 times fewer faults and leaves nothing to compare.
  const long first = faults_of_a_fresh_block(kBytes);
  if (first < kPages / 2) GTEST_SKIP() << "a fresh 64 MiB block took only " << first << " faults";
  EXPECT_GT(faults_of_a_fresh_block(kBytes), kPages / 2);
  mimic::core::keep_freed_memory();
  faults_of_a_fresh_block(kBytes);  // the first touch of heap memory faults once
  // Then the block comes back from the heap: a few faults at most (the heap's own bookkeeping).
  EXPECT_LT(faults_of_a_fresh_block(kBytes), kPages / 100);
  EXPECT_LT(faults_of_a_fresh_block(kBytes), kPages / 100);
#else
  GTEST_SKIP() << "keep_freed_memory sets glibc's thresholds only";
#endif
}

}  // namespace
