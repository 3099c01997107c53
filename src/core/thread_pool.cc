#include "core/thread_pool.h"

#include <atomic>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace aclnn_check {

struct ThreadPool::Loop {
  const std::function<void(int64_t)>* task;
  int64_t items;
  std::atomic<int64_t> next{0};
};

ThreadPool::ThreadPool(size_t threads) {
  for (size_t i = 1; i < threads; ++i) workers_.emplace_back([this] { WorkerMain(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::RunItems(Loop& loop) {
  for (int64_t item = loop.next.fetch_add(1); item < loop.items; item = loop.next.fetch_add(1)) {
    (*loop.task)(item);
  }
}

void ThreadPool::WorkerMain() {
  uint64_t seen = 0;
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
    if (stopping_) return;
    seen = generation_;
    Loop* loop = loop_;
    if (!loop) continue;  // woke after that loop had already finished
    ++active_workers_;
    lock.unlock();
    RunItems(*loop);
    lock.lock();
    if (--active_workers_ == 0) finished_.notify_all();
  }
}

void ThreadPool::ForEachItem(int64_t items, const std::function<void(int64_t)>& task) {
  if (items <= 0) return;
  std::unique_lock running(running_, std::defer_lock);
  if (workers_.empty() || items == 1 || !running.try_lock()) {
    for (int64_t item = 0; item < items; ++item) task(item);
    return;
  }
  Loop loop{&task, items};
  {
    std::lock_guard lock(mutex_);
    loop_ = &loop;
    ++generation_;
  }
  wake_.notify_all();
  RunItems(loop);
  std::unique_lock lock(mutex_);
  // Every item has been claimed; wait for the workers still running one.
  finished_.wait(lock, [&] { return active_workers_ == 0; });
  loop_ = nullptr;
}

size_t ThreadCountFromEnvironment(const char* variable) {
  if (const char* text = std::getenv(variable)) {
    size_t threads = 0;
    const char* end = text + std::strlen(text);
    const auto [rest, error] = std::from_chars(text, end, threads);
    if (error == std::errc() && rest == end && threads > 0) return threads;
  }
  return std::max<size_t>(1, std::thread::hardware_concurrency());
}

size_t CpuThreadCountFromEnvironment() { return ThreadCountFromEnvironment("ACLNN_CPU_THREADS"); }

namespace {

std::unique_ptr<ThreadPool>& PoolSlot() {
  static std::unique_ptr<ThreadPool> pool =
      std::make_unique<ThreadPool>(CpuThreadCountFromEnvironment());
  return pool;
}

}  // namespace

ThreadPool& CpuThreadPool() { return *PoolSlot(); }

void SetCpuThreadCount(size_t threads) {
  PoolSlot() = std::make_unique<ThreadPool>(std::max<size_t>(1, threads));
}

}  // namespace aclnn_check
