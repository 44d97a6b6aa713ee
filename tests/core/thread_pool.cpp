// ThreadPool runs every index once, on workers within its size, and hands a task's exception to the caller.
#include "mimic/core/thread_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

namespace mc = mimic::core;

namespace {

TEST(ThreadPool, RunsEveryIndexOnceOnItsWorkers) {
  for (int threads : {1, 2, 3}) {
    mc::ThreadPool pool(threads);
    EXPECT_EQ(pool.size(), threads);
    for (int round = 0; round < 20; ++round) {
      std::vector<std::atomic<int>> calls(37);
      std::atomic<bool> worker_in_range = true;
      pool.run(37, [&](int index, int worker) {
        calls[static_cast<std::size_t>(index)]++;
        if (worker < 0 || worker >= threads) worker_in_range = false;
      });
      for (const auto& c : calls) EXPECT_EQ(c.load(), 1);
      EXPECT_TRUE(worker_in_range);
    }
  }
}

TEST(ThreadPool, RethrowsATasksException) {
  mc::ThreadPool pool(2);
  EXPECT_THROW(pool.run(10,
                        [](int index, int) {
                          if (index == 3) throw std::runtime_error("task 3");
                        }),
               std::runtime_error);
  // Still usable afterwards.
  std::atomic<int> sum = 0;
  pool.run(4, [&](int index, int) { sum += index; });
  EXPECT_EQ(sum.load(), 6);
}

TEST(ThreadPool, ThreadCountZeroIsAllCores) {
  EXPECT_GE(mc::thread_count(0), 1);
  EXPECT_EQ(mc::thread_count(3), 3);
  EXPECT_THROW(mc::thread_count(-1), std::invalid_argument);
  EXPECT_THROW(mc::ThreadPool(0), std::invalid_argument);
}

}  // namespace
