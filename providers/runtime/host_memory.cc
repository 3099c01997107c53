#include "providers/runtime/host_memory.h"

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>

namespace aclnn_check::provider {
namespace {

// CANN aligns every allocation's start to 64 bytes (aclrtMalloc, aclrtMallocHost).
constexpr size_t kAlignment = 64;

struct Allocation {
  size_t size;      // as asked for
  void* allocated;  // what malloc returned, up to kAlignment - 1 bytes before the start
};

// Nothing small may stay in use between two large allocations, or the heap cannot merge them
// once both are freed (a large point's decoded output then took fresh memory after its inputs'
// buffers were freed). With aligned_alloc a 112-byte block sat between each two neighbouring
// buffers (its split-off remainder, or a small block placed there): allocations are aligned by
// hand.
struct Registry {
  std::mutex mutex;
  std::map<const char*, Allocation, std::less<>> allocations;  // by start address
};

Registry& RegistryOf(MemoryKind kind) {
  static Registry device;
  static Registry pinned_host;
  return kind == MemoryKind::kDevice ? device : pinned_host;
}

}  // namespace

void* AllocateMemory(MemoryKind kind, size_t size) {
  const size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
  void* allocated = std::malloc(rounded + kAlignment - 1);
  if (!allocated) return nullptr;
  const uintptr_t address = reinterpret_cast<uintptr_t>(allocated);
  void* memory = reinterpret_cast<void*>((address + kAlignment - 1) / kAlignment * kAlignment);
  Registry& registry = RegistryOf(kind);
  std::lock_guard lock(registry.mutex);
  registry.allocations[static_cast<const char*>(memory)] = {size, allocated};
  return memory;
}

bool ReleaseMemory(MemoryKind kind, void* pointer) {
  Registry& registry = RegistryOf(kind);
  void* allocated = nullptr;
  {
    std::lock_guard lock(registry.mutex);
    const auto found = registry.allocations.find(static_cast<const char*>(pointer));
    if (found == registry.allocations.end()) return false;
    allocated = found->second.allocated;
    registry.allocations.erase(found);
  }
  std::free(allocated);
  return true;
}

bool InsideMemory(MemoryKind kind, const void* pointer, size_t count) {
  Registry& registry = RegistryOf(kind);
  const char* start = static_cast<const char*>(pointer);
  std::lock_guard lock(registry.mutex);
  auto after = registry.allocations.upper_bound(start);
  if (after == registry.allocations.begin()) return false;
  const char* base = std::prev(after)->first;
  const size_t size = std::prev(after)->second.size;
  return start >= base && count <= size && static_cast<size_t>(start - base) <= size - count;
}

}  // namespace aclnn_check::provider
