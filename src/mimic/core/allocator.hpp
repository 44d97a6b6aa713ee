// How a `mimic` process allocates: freed memory stays in the heap.
//
// glibc gives blocks of 128 KB and more their own mappings and returns the heap's free top to the system,
// raising both thresholds as large blocks are freed, up to 32 MB. A problem's arrays (Jacobian patterns
// and values, normal matrices, factors, per-sample data) are allocated and freed again while it is built
// and solved, and every such array past the thresholds faults its pages in afresh: the 40 s tile's
// imitation solve (bench/motion.cpp, BM_ImitationTiled) took 84k page faults for a peak of 225 MB
// resident, 30k of them on memory it had touched before.
//
// keep_freed_memory() raises both thresholds to 1 GiB (mallopt; nothing elsewhere than glibc), so that
// freed memory is reused without faults: only the first touches remain (that solve: 54k faults, the same
// peak). The peak resident size does not grow; what the process freed is only returned at its exit. The
// `mimic` command and the bench programs call it first thing; a library user (the Python module) keeps
// the allocator's defaults.
#pragma once

namespace mimic::core {

void keep_freed_memory();

}  // namespace mimic::core
