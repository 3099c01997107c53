#include "providers/runtime/stream.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

namespace aclnn_check::provider {
namespace {

bool DeferLaunches() {
  const char* value = std::getenv("ACLNN_CPU_DEFER_LAUNCHES");
  return value && std::strcmp(value, "1") == 0;
}

}  // namespace

Stream::Stream()
    : released_(DeferLaunches() ? 0 : std::numeric_limits<uint64_t>::max()),
      thread_([this] { Loop(); }) {}

Stream::~Stream() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    released_ = std::numeric_limits<uint64_t>::max();
  }
  changed_.notify_all();
  thread_.join();
}

void Stream::Enqueue(std::function<void()> work) {
  {
    std::lock_guard lock(mutex_);
    pending_.push_back(std::move(work));
    ++enqueued_;
  }
  changed_.notify_all();
}

void Stream::Synchronize() {
  std::unique_lock lock(mutex_);
  const uint64_t target = enqueued_;
  if (released_ < target) released_ = target;
  changed_.notify_all();
  changed_.wait(lock, [&] { return finished_ >= target; });
}

void Stream::Loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] {
      return (!pending_.empty() && finished_ < released_) || (stopping_ && pending_.empty());
    });
    if (pending_.empty()) return;  // stopping, nothing left
    std::function<void()> work = std::move(pending_.front());
    pending_.pop_front();
    lock.unlock();
    work();
    lock.lock();
    ++finished_;
    changed_.notify_all();
  }
}

}  // namespace aclnn_check::provider
