// The host memory model of the cpu and ref providers: device memory is 64-byte aligned host
// memory, a stream is an in-order queue that runs when it is synchronised.
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "aclnn/acl_rt.h"
#include "providers/common/dispatch.h"
#include "providers/common/stream.h"

namespace aclnn_check::provider {
namespace {

constexpr size_t kDeviceAlignment = 64;

std::mutex& AllocationMutex() {
  static std::mutex mutex;
  return mutex;
}
std::unordered_map<void*, size_t>& Allocations() {
  static std::unordered_map<void*, size_t> allocations;
  return allocations;
}

// True when [pointer, pointer + count) lies inside one live allocation.
bool InsideAllocation(const void* pointer, size_t count) {
  std::lock_guard lock(AllocationMutex());
  const char* p = static_cast<const char*>(pointer);
  for (const auto& [base, size] : Allocations()) {
    const char* b = static_cast<const char*>(base);
    if (p >= b && p + count <= b + size) return true;
  }
  return false;
}

}  // namespace
}  // namespace aclnn_check::provider

using aclnn_check::provider::SetLastError;

extern "C" {

aclError aclrtSetDevice(int32_t device_id) {
  return device_id == 0 ? ACL_SUCCESS : ACL_ERROR_INVALID_DEVICE;
}
aclError aclrtResetDevice(int32_t device_id) {
  return device_id == 0 ? ACL_SUCCESS : ACL_ERROR_INVALID_DEVICE;
}

aclError aclrtMalloc(void** pointer, size_t size, aclrtMemMallocPolicy) {
  if (!pointer || size == 0) {
    SetLastError("aclrtMalloc: null result pointer or size 0");
    return ACL_ERROR_INVALID_PARAM;
  }
  const size_t rounded = (size + aclnn_check::provider::kDeviceAlignment - 1) /
                         aclnn_check::provider::kDeviceAlignment * aclnn_check::provider::kDeviceAlignment;
  void* memory = std::aligned_alloc(aclnn_check::provider::kDeviceAlignment, rounded);
  if (!memory) return ACL_ERROR_BAD_ALLOC;
  std::lock_guard lock(aclnn_check::provider::AllocationMutex());
  aclnn_check::provider::Allocations()[memory] = size;
  *pointer = memory;
  return ACL_SUCCESS;
}

aclError aclrtFree(void* pointer) {
  {
    std::lock_guard lock(aclnn_check::provider::AllocationMutex());
    if (aclnn_check::provider::Allocations().erase(pointer) == 0) {
      SetLastError("aclrtFree: not a pointer from aclrtMalloc");
      return ACL_ERROR_INVALID_PARAM;
    }
  }
  std::free(pointer);
  return ACL_SUCCESS;
}

aclError aclrtMemcpy(void* dst, size_t dest_max, const void* src, size_t count,
                     aclrtMemcpyKind kind) {
  if (!dst || !src || count > dest_max) {
    SetLastError("aclrtMemcpy: null pointer or count larger than destMax");
    return ACL_ERROR_INVALID_PARAM;
  }
  const bool dst_device = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
  const bool src_device = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
  if ((dst_device && !aclnn_check::provider::InsideAllocation(dst, count)) ||
      (src_device && !aclnn_check::provider::InsideAllocation(src, count))) {
    SetLastError("aclrtMemcpy: device range outside every aclrtMalloc allocation");
    return ACL_ERROR_INVALID_PARAM;
  }
  std::memmove(dst, src, count);
  return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream* stream) {
  if (!stream) return ACL_ERROR_INVALID_PARAM;
  *stream = new aclnn_check::provider::Stream();
  return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
  if (!stream) return ACL_ERROR_INVALID_PARAM;
  auto* queue = static_cast<aclnn_check::provider::Stream*>(stream);
  queue->RunPending();
  delete queue;
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  if (!stream) return ACL_SUCCESS;  // the default stream runs work at once
  static_cast<aclnn_check::provider::Stream*>(stream)->RunPending();
  return ACL_SUCCESS;
}

}  // extern "C"
