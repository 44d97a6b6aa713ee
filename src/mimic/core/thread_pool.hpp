// A fixed set of worker threads running the indices of a loop (issue 15, "both cores"): the problems
// evaluate their sampled rows on it and NormalEquations assembles its columns on it. The calling thread
// takes part, so a pool of size 1 starts no thread and runs everything inline.
//
// Determinism is the callers' business and is easy to keep: a task writes only what its index owns (rows of
// a Jacobian, columns of a normal matrix) plus the scratch of its index, so the results do not depend on
// which thread runs which index, nor on the thread count.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace mimic::core {

// The number of threads `threads` asks for: itself when >= 1, all cores (std::thread::hardware_concurrency,
// at least 1) when 0. Throws std::invalid_argument when negative.
int thread_count(int threads);

class ThreadPool {
 public:
  // `threads` >= 1 threads in all, the caller's included.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Calls task(i, worker) once for every i in [0, count) and returns when all have returned. Indices are
  // handed out in increasing order to whichever thread is free; `worker` (in [0, size()), 0 = the caller)
  // names the thread running the call, so that a task can use scratch of its own thread: no two concurrent
  // calls share a worker. The first exception a task throws is rethrown here once every started task has
  // returned (indices not yet started are skipped). Not reentrant: a task must not call run() on the same
  // pool.
  using Task = std::function<void(int index, int worker)>;
  void run(int count, const Task& task);

 private:
  void work(int worker);
  // Runs indices of the current job on `worker` until none is left.
  void drain(int worker);

  std::vector<std::jthread> workers_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  const Task* task_ = nullptr;
  int count_ = 0;
  int next_ = 0;     // next index to hand out (under mutex_)
  int running_ = 0;  // indices handed out and not yet returned
  long generation_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

// The threads tasks on `pool` run on (1 for no pool): how many sets of per-thread scratch a caller needs.
inline int worker_count(const ThreadPool* pool) { return pool != nullptr ? pool->size() : 1; }

// Calls body(first, last, worker) on ranges of consecutive indices that cover [0, count) once: about 8 per
// thread on `pool` (ranges of unequal cost even out, and the pool's lock is taken per range, not per
// index), or the whole of it on the calling thread (worker 0) when pool is null or has one thread. The
// per-sample stages run on it (a motion's samples); a body that writes only what its indices own gives the
// same results for every thread count.
template <class Body>
void for_each_range(ThreadPool* pool, int count, const Body& body) {
  if (count <= 0) return;
  if (pool == nullptr || pool->size() == 1) {
    body(0, count, 0);
    return;
  }
  const int ranges = std::min(count, 8 * pool->size());
  pool->run(ranges, [&](int range, int worker) {
    const auto bound = [&](int r) { return static_cast<int>(static_cast<long long>(count) * r / ranges); };
    body(bound(range), bound(range + 1), worker);
  });
}

// Runs first() and second() at the same time on two threads of `pool`, or one after the other on the
// calling thread when pool is null or has one thread (for two independent halves of one piece of work).
template <class First, class Second>
void run_both(ThreadPool* pool, const First& first, const Second& second) {
  if (pool == nullptr || pool->size() == 1) {
    first();
    second();
    return;
  }
  pool->run(2, [&](int index, int /*worker*/) { index == 0 ? first() : second(); });
}

}  // namespace mimic::core
