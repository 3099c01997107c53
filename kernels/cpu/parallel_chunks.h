// How the cpu provider's kernels cut work into items for the thread pool. Item boundaries depend
// only on the problem size, never on the thread count, so results are the same on any number of
// threads.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/thread_pool.h"

namespace aclnn_check {

// Elementwise items: 2^18 elements, 1 MiB of float32 per stream. Threads claim items in turn, so
// each thread's streams jump at every item boundary; with 16384-element items two threads reached
// 72 % of the triad on Hardswish and Logit float32 at 16 Mi elements, with 2^18 91-99 % (same
// run, interleaved repetitions). 64 items still share 16 Mi elements evenly between threads.
constexpr int64_t kElementsPerItem = 1 << 18;

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
