// The harness's heap: freed memory kept for reuse, and the memory a large test point is about to
// use faulted in by every harness thread at once. On the virtual machines CI runs on, touching a
// page for the first time costs several times writing it, and a single thread faults pages in at
// a fraction of the rate two threads reach (the measurements are in docs/decisions.md).
#pragma once

#include <cstdint>

namespace aclnn_check {

// Large blocks come from the one heap of the main arena (glibc ignores an mmap threshold above
// 32 MiB, so mmap is switched off) and the heap is never trimmed: a freed buffer's pages serve the
// next one. The cost is that the process keeps its largest footprint until it exits. Call once,
// at start-up, before other threads run. False where the allocator is not glibc's own (a
// sanitizer's, say): then nothing changed and WarmHeap does nothing.
bool KeepFreedMemoryInTheHeap();

// Faults in bytes of heap over the harness's threads and frees them again, so the allocations
// that follow reuse pages already there. Only after KeepFreedMemoryInTheHeap (otherwise the block
// would go back to the system at once), only for blocks of at least 64 MiB, and only beyond what
// this process has warmed already.
void WarmHeap(uint64_t bytes);

}  // namespace aclnn_check
