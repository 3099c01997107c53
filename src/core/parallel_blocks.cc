#include "core/parallel_blocks.h"

#include <unistd.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <mutex>

#include "core/thread_pool.h"

namespace aclnn_check {
namespace {

struct HarnessPool {
  std::mutex mutex;
  ThreadPool* pool = nullptr;
  pid_t owner = 0;
  size_t threads = 0;  // 0: from the environment

  // The provider libraries compute references too (the ref provider): when one is unloaded, its
  // pool's threads must end first, or they run on in unmapped code. Only the owner joins them.
  ~HarnessPool() {
    if (pool && owner == ::getpid()) delete pool;
  }
};

HarnessPool& Slot() {
  static HarnessPool slot;
  return slot;
}

// The pool of this process. Isolated workers are forked from the harness without exec: a pool
// the parent created has no threads in the child, so a child makes its own and leaves the
// parent's copy alone (joining threads that do not exist would hang).
ThreadPool& Pool() {
  HarnessPool& slot = Slot();
  std::lock_guard lock(slot.mutex);
  if (!slot.pool || slot.owner != ::getpid()) {
    slot.pool = new ThreadPool(slot.threads ? slot.threads : HarnessThreadCountFromEnvironment());
    slot.owner = ::getpid();
  }
  return *slot.pool;
}

}  // namespace

size_t HarnessThreadCountFromEnvironment() {
  return ThreadCountFromEnvironment("ACLNN_CHECK_THREADS");
}

void SetHarnessThreadCount(size_t threads) {
  HarnessPool& slot = Slot();
  std::lock_guard lock(slot.mutex);
  if (slot.pool && slot.owner == ::getpid()) delete slot.pool;
  slot.pool = nullptr;
  slot.threads = std::max<size_t>(1, threads);
}

void ForEachHarnessItem(int64_t items, const std::function<void(int64_t)>& body) {
  if (items <= 0) return;
  if (items == 1) return body(0);
  // A throwing item must not end the process from a pool thread: the first error is rethrown
  // on the caller once every item has run.
  std::mutex error_mutex;
  std::exception_ptr error;
  Pool().ForEachItem(items, [&](int64_t item) {
    try {
      body(item);
    } catch (...) {
      std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  });
  if (error) std::rethrow_exception(error);
}

void ForEachBlock(int64_t elements, const std::function<void(int64_t, int64_t, int64_t)>& body) {
  ForEachHarnessItem(BlockCount(elements), [&](int64_t block) {
    const int64_t begin = block * kHarnessBlock;
    body(block, begin, std::min(elements, begin + kHarnessBlock));
  });
}

void ForEachChunk(uint64_t bytes, uint64_t chunk,
                  const std::function<void(uint64_t, uint64_t)>& part) {
  ForEachHarnessItem(static_cast<int64_t>((bytes + chunk - 1) / chunk), [&](int64_t item) {
    const uint64_t begin = static_cast<uint64_t>(item) * chunk;
    part(begin, std::min(chunk, bytes - begin));
  });
}

}  // namespace aclnn_check
