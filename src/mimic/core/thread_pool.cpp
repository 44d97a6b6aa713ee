#include "mimic/core/thread_pool.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace mimic::core {

int thread_count(int threads) {
  if (threads < 0) throw std::invalid_argument("thread count " + std::to_string(threads) + " is negative");
  if (threads > 0) return threads;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores > 0 ? static_cast<int>(cores) : 1;
}

ThreadPool::ThreadPool(int threads) {
  if (threads < 1) throw std::invalid_argument("ThreadPool: " + std::to_string(threads) + " threads");
  workers_.reserve(static_cast<std::size_t>(threads - 1));
  for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { work(t); });
}

ThreadPool::~ThreadPool() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  workers_.clear();  // joins
}

void ThreadPool::run(int count, const Task& task) {
  if (count <= 0) return;
  if (workers_.empty() || count == 1) {
    for (int i = 0; i < count; ++i) task(i, 0);
    return;
  }
  {
    const std::lock_guard lock(mutex_);
    task_ = &task;
    count_ = count;
    next_ = 0;
    running_ = 0;
    error_ = nullptr;
    ++generation_;
  }
  start_.notify_all();
  drain(0);
  std::unique_lock lock(mutex_);
  done_.wait(lock, [this] { return next_ >= count_ && running_ == 0; });
  task_ = nullptr;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void ThreadPool::drain(int worker) {
  std::unique_lock lock(mutex_);
  while (next_ < count_) {
    const int index = next_++;
    ++running_;
    const Task& task = *task_;
    lock.unlock();
    std::exception_ptr error;
    try {
      task(index, worker);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    --running_;
    if (error) {
      if (!error_) error_ = error;
      next_ = count_;  // skip what is not started
    }
  }
  if (running_ == 0) done_.notify_all();
}

void ThreadPool::work(int worker) {
  long seen = 0;
  while (true) {
    {
      std::unique_lock lock(mutex_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    drain(worker);
  }
}

}  // namespace mimic::core
