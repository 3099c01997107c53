// The emulator's memory model: "device" memory and aclrtMallocHost's pinned memory are both
// 64-byte aligned host memory, kept in two registries so that each free call accepts only its own
// pointers and aclrtMemcpy can check that a device range lies inside one allocation.
//
// Strict device memory (ACLNN_CPU_STRICT_MEMORY=1, read once): each device allocation is a
// memfd mapped twice. The address handed to the program is a PROT_NONE mapping, so a host
// dereference faults at once, as a device address does on an NPU's host; aclrtMemcpy, aclrtMemset
// and the kernels reach the same bytes through the second, read-write mapping (HostAccess).
#pragma once

#include <cstddef>

namespace aclnn_check::provider {

enum class MemoryKind { kDevice, kPinnedHost };

// True when ACLNN_CPU_STRICT_MEMORY=1.
bool StrictDeviceMemory();

// nullptr when the system has no memory left. size > 0.
void* AllocateMemory(MemoryKind kind, size_t size);
// False when pointer is not the start of a live allocation of that kind.
bool ReleaseMemory(MemoryKind kind, void* pointer);
// True when [pointer, pointer + count) lies inside one live allocation of that kind.
bool InsideMemory(MemoryKind kind, const void* pointer, size_t count);
// The address through which the host reaches `pointer`: its place in the read-write mapping
// when it lies in a strict device allocation, else the pointer itself.
void* HostAccess(const void* pointer);

}  // namespace aclnn_check::provider
