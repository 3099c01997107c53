#include "core/heap.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "core/parallel_blocks.h"

namespace aclnn_check {
namespace {

std::atomic<bool> heap_keeps_memory{false};
std::mutex warm_mutex;
uint64_t warmed = 0;  // the largest block warmed so far: the heap holds at least that much

constexpr uint64_t kSmallestWarmed = uint64_t{64} << 20;
constexpr uint64_t kWarmChunk = uint64_t{8} << 20;

// Faults in [begin, begin + length): the kernel fills the page tables in one call, faster than
// faulting page by page (docs/decisions.md, "WarmHeap populates instead of touching"). memset
// where the kernel lacks MADV_POPULATE_WRITE (before Linux 5.14).
void FaultIn(char* begin, uint64_t length) {
#if defined(MADV_POPULATE_WRITE)
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t first = (reinterpret_cast<uintptr_t>(begin) + page - 1) & ~(page - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(begin) + length) & ~(page - 1);
  if (end > first &&
      madvise(reinterpret_cast<void*>(first), end - first, MADV_POPULATE_WRITE) == 0) {
    return;
  }
#endif
  std::memset(begin, 0, length);
}

}  // namespace

bool KeepFreedMemoryInTheHeap() {
#if defined(__GLIBC__)
  // One arena: a thread's own arena serves a large block with mmap whatever M_MMAP_MAX says
  // (glibc 2.36), and gives it back at free. Small blocks still come from per-thread caches.
  const bool one_arena = mallopt(M_ARENA_MAX, 1) == 1;
  const bool no_mmap = mallopt(M_MMAP_MAX, 0) == 1;
  const bool no_trim = mallopt(M_TRIM_THRESHOLD, -1) == 1;  // -1: never (mallopt(3))
  heap_keeps_memory = one_arena && no_mmap && no_trim;
#endif
  return heap_keeps_memory;
}

void WarmHeap(uint64_t bytes) {
  if (!heap_keeps_memory || bytes < kSmallestWarmed) return;
  std::lock_guard lock(warm_mutex);
  if (bytes <= warmed) return;
  void* block = std::malloc(bytes);
  if (!block) return;  // the point itself will report what it cannot allocate
  ForEachChunk(bytes, kWarmChunk, [&](uint64_t begin, uint64_t length) {
    FaultIn(static_cast<char*>(block) + begin, length);
  });
  std::free(block);
  warmed = bytes;
}

}  // namespace aclnn_check
