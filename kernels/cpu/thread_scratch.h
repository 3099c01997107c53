// A per-thread buffer for the SIMD kernels' work items, so that an item allocates nothing: it grows
// to the largest request on its thread and stays. One item uses it at a time on a thread; the
// memory is uninitialized and aligned for every Highway target's whole-vector loads and stores.
#pragma once

#include <cstddef>

namespace aclnn_check {

// At least `floats` floats, valid until this thread's next call.
float* ThreadScratchFloats(size_t floats);

}  // namespace aclnn_check
