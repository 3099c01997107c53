// The cpu provider's thread pool: every item runs exactly once, on any number of threads, also
// when two callers run loops at the same time and when loops follow each other quickly.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <cstdlib>
#include <thread>
#include <vector>

#include "core/thread_pool.h"

namespace aclnn_check {
namespace {

std::vector<int> RunCounts(ThreadPool& pool, int64_t items) {
  std::vector<std::atomic<int>> counts(static_cast<size_t>(items));
  pool.ForEachItem(items, [&](int64_t item) { counts[static_cast<size_t>(item)]++; });
  std::vector<int> result;
  for (const auto& count : counts) result.push_back(count.load());
  return result;
}

TEST(ThreadPool, RunsEveryItemExactlyOnceOnAnyThreadCount) {
  for (size_t threads : {1, 2, 3, 8}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.threads(), threads);
    for (int64_t items : {0, 1, 2, 7, 1000}) {
      const std::vector<int> counts = RunCounts(pool, items);
      for (int64_t i = 0; i < items; ++i) {
        ASSERT_EQ(counts[static_cast<size_t>(i)], 1) << threads << " threads, item " << i;
      }
    }
  }
}

TEST(ThreadPool, UsesMoreThanOneThreadWhenItHasThem) {
  ThreadPool pool(3);
  std::mutex mutex;
  std::set<std::thread::id> seen;
  pool.ForEachItem(300, [&](int64_t) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    std::lock_guard lock(mutex);
    seen.insert(std::this_thread::get_id());
  });
  EXPECT_GE(seen.size(), 2u);
}

TEST(ThreadPool, ConcurrentCallersAndBackToBackLoopsAllFinish) {
  ThreadPool pool(2);
  std::atomic<int64_t> total{0};
  auto caller = [&] {
    for (int loop = 0; loop < 200; ++loop) {
      pool.ForEachItem(13, [&](int64_t item) { total += item + 1; });
    }
  };
  std::thread a(caller), b(caller);
  a.join();
  b.join();
  EXPECT_EQ(total.load(), 2 * 200 * (13 * 14 / 2));
}

TEST(ThreadPool, ThreadCountComesFromTheEnvironment) {
  const char* saved = std::getenv("ACLNN_CPU_THREADS");
  const std::string restore = saved ? saved : "";
  setenv("ACLNN_CPU_THREADS", "3", 1);
  EXPECT_EQ(CpuThreadCountFromEnvironment(), 3u);
  setenv("ACLNN_CPU_THREADS", "zero", 1);
  EXPECT_EQ(CpuThreadCountFromEnvironment(), std::max(1u, std::thread::hardware_concurrency()));
  if (saved) {
    setenv("ACLNN_CPU_THREADS", restore.c_str(), 1);
  } else {
    unsetenv("ACLNN_CPU_THREADS");
  }
}

}  // namespace
}  // namespace aclnn_check
