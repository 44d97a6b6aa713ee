#include "mimic/core/allocator.hpp"

#include <cstdlib>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace mimic::core {

void keep_freed_memory() {
#if defined(__GLIBC__)
  // 1 GiB: above the arrays of any problem well inside the 4 GiB budget (motion/problem_budget.hpp); a
  // larger block keeps its own mapping. Set explicitly, the thresholds no longer move.
  constexpr int kThreshold = 1 << 30;
  mallopt(M_MMAP_THRESHOLD, kThreshold);
  mallopt(M_TRIM_THRESHOLD, kThreshold);
#endif
}

}  // namespace mimic::core
