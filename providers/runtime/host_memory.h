// The emulator's memory model: "device" memory and aclrtMallocHost's pinned memory are both
// 64-byte aligned host memory, kept in two registries so that each free call accepts only its own
// pointers and aclrtMemcpy can check that a device range lies inside one allocation.
#pragma once

#include <cstddef>

namespace aclnn_check::provider {

enum class MemoryKind { kDevice, kPinnedHost };

// nullptr when the system has no memory left. size > 0.
void* AllocateMemory(MemoryKind kind, size_t size);
// False when pointer is not the start of a live allocation of that kind.
bool ReleaseMemory(MemoryKind kind, void* pointer);
// True when [pointer, pointer + count) lies inside one live allocation of that kind.
bool InsideMemory(MemoryKind kind, const void* pointer, size_t count);

}  // namespace aclnn_check::provider
