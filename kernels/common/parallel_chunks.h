// How the cpu provider's kernels cut work into items for the thread pool. Item boundaries depend
// only on the problem size, never on the thread count, so results are the same on any number of
// threads.
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/thread_pool.h"

namespace aclnn_check {

// Elementwise items: 16384 elements, 64 KiB of float32 per stream, big enough that the pool's
// per-item cost (one atomic increment) vanishes and small enough that two threads share
// 16 Mi elements evenly (1024 items) and a stream's chunk stays in L2.
constexpr int64_t kElementsPerItem = 16384;

// Calls body(begin, end) for consecutive ranges of at most `per_item` of [0, count), in parallel.
template <class Body>
void ParallelRanges(int64_t count, int64_t per_item, const Body& body) {
  if (count <= 0) return;
  const int64_t items = (count + per_item - 1) / per_item;
  CpuThreadPool().ForEachItem(items, [&](int64_t item) {
    const int64_t begin = item * per_item;
    body(begin, std::min(count, begin + per_item));
  });
}

}  // namespace aclnn_check
