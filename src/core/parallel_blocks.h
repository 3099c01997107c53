// The harness's own data path (input generation, decoding, the float64 references, the check of
// each output) cut into blocks of a fixed size and spread over the harness's threads. Block
// boundaries depend only on the element count, and callers keep one partial result per block
// merged in block order, so results never depend on the thread count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace aclnn_check {

// 2^16 elements: a block's device values and reference (about 2 MiB) stay in L2, and a 49 M
// element output still gives every thread hundreds of blocks.
constexpr int64_t kHarnessBlock = int64_t{1} << 16;

inline int64_t BlockCount(int64_t elements) {
  return (elements + kHarnessBlock - 1) / kHarnessBlock;
}

// Calls body(block, begin, end) once for each block of [0, elements), in parallel.
void ForEachBlock(int64_t elements, const std::function<void(int64_t, int64_t, int64_t)>& body);

// Calls body(item) once for each item of [0, items), in parallel: for work whose natural unit is
// not an element (a reference's rows or heads). Each item must write only its own outputs.
void ForEachHarnessItem(int64_t items, const std::function<void(int64_t)>& body);

// Calls part(begin, length) once for each chunk of `chunk` bytes of [0, bytes), in parallel: the
// first touch of a large buffer faults its pages in, which two threads do at about twice one's
// rate on the project's machines.
void ForEachChunk(uint64_t bytes, uint64_t chunk,
                  const std::function<void(uint64_t, uint64_t)>& part);

// ACLNN_CHECK_THREADS when it holds a positive integer, else every hardware thread.
size_t HarnessThreadCountFromEnvironment();
// Replaces the harness's pool (tests compare thread counts in one process).
void SetHarnessThreadCount(size_t threads);

}  // namespace aclnn_check
