#include "cpu/thread_scratch.h"

#include "hwy/aligned_allocator.h"
#include "hwy/base.h"

namespace aclnn_check {

float* ThreadScratchFloats(size_t floats) {
  thread_local hwy::AlignedFreeUniquePtr<float[]> scratch;
  thread_local size_t capacity = 0;
  if (capacity < floats) {
    scratch = hwy::AllocateAligned<float>(floats);
    HWY_ASSERT(scratch);
    capacity = floats;
  }
  return scratch.get();
}

}  // namespace aclnn_check
