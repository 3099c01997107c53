// An in-order work queue standing in for a device stream.
#pragma once

#include <functional>
#include <mutex>
#include <vector>

namespace aclnn_check::provider {

class Stream {
 public:
  void Enqueue(std::function<void()> work) {
    std::lock_guard lock(mutex_);
    pending_.push_back(std::move(work));
  }
  void RunPending() {
    std::vector<std::function<void()>> work;
    {
      std::lock_guard lock(mutex_);
      work.swap(pending_);
    }
    for (auto& item : work) item();
  }

 private:
  std::mutex mutex_;
  std::vector<std::function<void()>> pending_;
};

}  // namespace aclnn_check::provider
