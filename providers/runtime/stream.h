// An in-order work queue standing in for a device stream: its own thread runs the work in the
// order it was enqueued, so the call that enqueues returns at once, as an execute call does on
// an NPU. With ACLNN_CPU_DEFER_LAUNCHES=1 (read when the stream is created) the thread starts
// nothing until the program synchronises: the widest gap a device may leave between an execute
// call and its work, and a deterministic one for tests.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace aclnn_check::provider {

class Stream {
 public:
  Stream();
  // Runs what is still queued, then stops the thread (CANN waits for unfinished tasks before
  // releasing a stream).
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  void Enqueue(std::function<void()> work);
  // Returns once everything enqueued before the call has run.
  void Synchronize();
  // The name of the queue before it had a thread: Synchronize.
  void RunPending() { Synchronize(); }

 private:
  void Loop();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> pending_;
  uint64_t enqueued_ = 0;  // work items ever enqueued
  uint64_t finished_ = 0;  // work items run to the end
  uint64_t released_;      // the thread may start item k (0-based) only while k < released_
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace aclnn_check::provider
