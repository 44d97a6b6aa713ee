// A fixed set of worker threads running the indices of a loop (issue 15, "both cores"): the problems
// evaluate their sampled rows on it and NormalEquations assembles its columns on it. The calling thread
// takes part, so a pool of size 1 starts no thread and runs everything inline.
//
// Determinism is the callers' business and is easy to keep: a task writes only what its index owns (rows of
// a Jacobian, columns of a normal matrix) plus the scratch of its index, so the results do not depend on
// which thread runs which index, nor on the thread count.
#pragma once

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

}  // namespace mimic::core
