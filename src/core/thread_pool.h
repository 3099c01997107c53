// The cpu provider's worker threads: one persistent pool that runs the items of a parallel loop.
// Results never depend on the number of threads, because callers split their work into items
// whose boundaries depend only on the problem and give each item its own output.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace aclnn_check {

class ThreadPool {
 public:
  // threads counts the calling thread: a pool of 1 runs everything on the caller.
  explicit ThreadPool(size_t threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  size_t threads() const { return workers_.size() + 1; }

  // Calls task(item) once for every item in [0, items) and returns when all have finished. The
  // caller works too. A second caller while a loop runs (the runner's --jobs) gets its items run
  // on its own thread instead of waiting.
  void ForEachItem(int64_t items, const std::function<void(int64_t)>& task);

 private:
  struct Loop;
  void WorkerMain();
  static void RunItems(Loop& loop);

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable finished_;
  Loop* loop_ = nullptr;
  uint64_t generation_ = 0;
  int active_workers_ = 0;
  bool stopping_ = false;
  std::mutex running_;  // held by the caller whose loop the workers serve
  std::vector<std::thread> workers_;
};

// ACLNN_CPU_THREADS when it holds a positive integer, else every hardware thread.
size_t CpuThreadCountFromEnvironment();
// The positive integer the environment variable holds, else every hardware thread (at least 1):
// the cpu provider's ACLNN_CPU_THREADS and the harness's ACLNN_CHECK_THREADS.
size_t ThreadCountFromEnvironment(const char* variable);
// The pool of the cpu provider's kernels, created on first use with
// CpuThreadCountFromEnvironment() threads.
ThreadPool& CpuThreadPool();
// Replaces the pool with one of `threads` threads (tests compare thread counts in one process).
// Must not run while a kernel is computing.
void SetCpuThreadCount(size_t threads);

}  // namespace aclnn_check
