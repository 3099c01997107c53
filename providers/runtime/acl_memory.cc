// aclrtMalloc, aclrtMallocHost, aclrtMemcpy, aclrtMemset and their frees over the emulator's
// memory model (host_memory.h). aclrtMemcpy and aclrtMemset act at once, as CANN documents, and
// reach strict device memory through its read-write mapping.
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>

#include "acl/acl_rt.h"
#include "core/parallel_blocks.h"
#include "providers/runtime/host_memory.h"
#include "providers/runtime/last_error.h"

namespace {

using aclnn_check::provider::HostAccess;
using aclnn_check::provider::InsideMemory;
using aclnn_check::provider::MemoryKind;

aclError Fail(aclError status, std::string message) {
  aclnn_check::provider::SetLastError(std::move(message));
  return status;
}

aclError Allocate(const char* function, MemoryKind kind, void** pointer, size_t size) {
  if (!pointer || size == 0) {
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(function) + ": null result pointer or size 0");
  }
  void* memory = aclnn_check::provider::AllocateMemory(kind, size);
  if (!memory) {
    return Fail(ACL_ERROR_BAD_ALLOC,
                std::string(function) + ": out of memory for " + std::to_string(size) + " bytes");
  }
  *pointer = memory;
  return ACL_SUCCESS;
}

aclError Release(const char* function, const char* allocator, MemoryKind kind, void* pointer) {
  if (!aclnn_check::provider::ReleaseMemory(kind, pointer)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(function) + ": not a live pointer from " + allocator);
  }
  return ACL_SUCCESS;
}

// Which ends of a copy must lie in device memory; false for a kind CANN does not define.
bool DeviceEnds(int kind, bool* dst_device, bool* src_device) {
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
    case ACL_MEMCPY_DEFAULT:  // direction inferred from the addresses: nothing to require
      *dst_device = *src_device = false;
      return true;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
      *dst_device = true;
      *src_device = false;
      return true;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      *dst_device = false;
      *src_device = true;
      return true;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE:
      *dst_device = *src_device = true;
      return true;
  }
  return false;
}

// Large copies and fills run in chunks over the threads: the copy that first writes a buffer
// faults its pages in, and on the project's machines one thread faults memory in at a third to a
// half of two threads' rate (a large point's upload was seconds). Chunk boundaries do not change
// the bytes written.
constexpr size_t kChunkBytes = size_t{4} << 20;

void InChunks(size_t count, const std::function<void(uint64_t, uint64_t)>& part) {
  if (count < 4 * kChunkBytes) return part(0, count);
  aclnn_check::ForEachChunk(count, kChunkBytes, part);
}

void Copy(void* dst, const void* src, size_t count) {
  const auto* from = static_cast<const std::byte*>(src);
  auto* to = static_cast<std::byte*>(dst);
  // Overlapping ranges keep memmove's one pass.
  if (to < from + count && from < to + count)
    return static_cast<void>(std::memmove(dst, src, count));
  InChunks(count,
           [&](size_t begin, size_t bytes) { std::memcpy(to + begin, from + begin, bytes); });
}

}  // namespace

extern "C" {

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy) {
  return Allocate("aclrtMalloc", MemoryKind::kDevice, devPtr, size);
}

aclError aclrtFree(void* devPtr) {
  return Release("aclrtFree", "aclrtMalloc", MemoryKind::kDevice, devPtr);
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  return Allocate("aclrtMallocHost", MemoryKind::kPinnedHost, hostPtr, size);
}

aclError aclrtFreeHost(void* hostPtr) {
  return Release("aclrtFreeHost", "aclrtMallocHost", MemoryKind::kPinnedHost, hostPtr);
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind) {
  if (!dst || !src || count > destMax) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: null pointer or count larger than destMax");
  }
  // A C caller may pass any int: read the bits, since loading a value outside the enumerators'
  // range as the enum type is undefined in C++ (UBSan's -fsanitize=enum).
  int raw_kind = 0;
  static_assert(sizeof raw_kind == sizeof kind);
  std::memcpy(&raw_kind, &kind, sizeof raw_kind);
  bool dst_device = false;
  bool src_device = false;
  if (!DeviceEnds(raw_kind, &dst_device, &src_device)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtMemcpy: kind " + std::to_string(raw_kind) + " is not an aclrtMemcpyKind");
  }
  if ((dst_device && !InsideMemory(MemoryKind::kDevice, dst, count)) ||
      (src_device && !InsideMemory(MemoryKind::kDevice, src, count))) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtMemcpy: device range outside every aclrtMalloc allocation");
  }
  Copy(HostAccess(dst), HostAccess(src), count);
  return ACL_SUCCESS;
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  if (!devPtr || count > maxCount) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: null pointer or count larger than maxCount");
  }
  if (!InsideMemory(MemoryKind::kDevice, devPtr, count) &&
      !InsideMemory(MemoryKind::kPinnedHost, devPtr, count)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtMemset: range outside every aclrtMalloc and aclrtMallocHost allocation");
  }
  auto* bytes = static_cast<std::byte*>(HostAccess(devPtr));
  InChunks(count, [&](size_t begin, size_t length) { std::memset(bytes + begin, value, length); });
  return ACL_SUCCESS;
}

}  // extern "C"
