// Counting allocator for the "hot loops never allocate" tests (docs/CONTRACTS.md). Include it from exactly
// one source file of a test executable: it replaces the global operator new / new[] (every C++ allocation)
// and, on glibc, malloc / calloc / realloc (Eigen's dynamic matrices allocate with std::malloc, not
// operator new), and counts the calls made while a scope is armed (count_allocations).
#pragma once

#include <atomic>
#include <cstdlib>
#include <new>

namespace mimic::test::detail {

inline std::atomic<bool> g_armed{false};
inline std::atomic<long> g_new_calls{0};
inline std::atomic<long> g_malloc_calls{0};

inline void* counted_new(std::size_t n) {
  if (g_armed.load(std::memory_order_relaxed)) g_new_calls.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}

}  // namespace mimic::test::detail

void* operator new(std::size_t n) { return mimic::test::detail::counted_new(n); }
void* operator new[](std::size_t n) { return mimic::test::detail::counted_new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return mimic::test::detail::counted_new(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
// (Not under AddressSanitizer, which owns malloc itself.)
// glibc lets a program replace malloc by defining malloc, free, calloc and realloc; these forward to
// glibc's own implementation (so memalign & co. and free stay consistent) and count while armed.
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void __libc_free(void*);

void* malloc(std::size_t n) noexcept {
  if (mimic::test::detail::g_armed.load(std::memory_order_relaxed))
    mimic::test::detail::g_malloc_calls.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t size) noexcept {
  if (mimic::test::detail::g_armed.load(std::memory_order_relaxed))
    mimic::test::detail::g_malloc_calls.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t n) noexcept {
  if (mimic::test::detail::g_armed.load(std::memory_order_relaxed))
    mimic::test::detail::g_malloc_calls.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(p, n);
}
void free(void* p) noexcept { __libc_free(p); }
}
#define MIMIC_TEST_COUNTS_MALLOC 1
#else
#define MIMIC_TEST_COUNTS_MALLOC 0
#endif

namespace mimic::test {

inline constexpr bool kCountsMalloc = MIMIC_TEST_COUNTS_MALLOC == 1;

struct Counts {
  long total() const { return news + mallocs; }
  long news = 0;
  long mallocs = 0;
};

// Runs f with the counters armed; returns what it allocated.
template <typename F>
Counts count_allocations(F&& f) {
  detail::g_new_calls = 0;
  detail::g_malloc_calls = 0;
  detail::g_armed = true;
  f();
  detail::g_armed = false;
  return {detail::g_new_calls.load(), detail::g_malloc_calls.load()};
}

}  // namespace mimic::test
