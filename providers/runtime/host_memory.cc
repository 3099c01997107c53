#include "providers/runtime/host_memory.h"

#include <cstdlib>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>

namespace aclnn_check::provider {
namespace {

// CANN aligns every allocation's start to 64 bytes (aclrtMalloc, aclrtMallocHost).
constexpr size_t kAlignment = 64;

struct Registry {
  std::mutex mutex;
  std::map<const char*, size_t, std::less<>> sizes;  // by start address, for range lookups
};

Registry& RegistryOf(MemoryKind kind) {
  static Registry device;
  static Registry pinned_host;
  return kind == MemoryKind::kDevice ? device : pinned_host;
}

}  // namespace

void* AllocateMemory(MemoryKind kind, size_t size) {
  const size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
  void* memory = std::aligned_alloc(kAlignment, rounded);
  if (!memory) return nullptr;
  Registry& registry = RegistryOf(kind);
  std::lock_guard lock(registry.mutex);
  registry.sizes[static_cast<const char*>(memory)] = size;
  return memory;
}

bool ReleaseMemory(MemoryKind kind, void* pointer) {
  Registry& registry = RegistryOf(kind);
  {
    std::lock_guard lock(registry.mutex);
    if (registry.sizes.erase(static_cast<const char*>(pointer)) == 0) return false;
  }
  std::free(pointer);
  return true;
}

bool InsideMemory(MemoryKind kind, const void* pointer, size_t count) {
  Registry& registry = RegistryOf(kind);
  const char* start = static_cast<const char*>(pointer);
  std::lock_guard lock(registry.mutex);
  auto after = registry.sizes.upper_bound(start);
  if (after == registry.sizes.begin()) return false;
  const auto& [base, size] = *std::prev(after);
  return start >= base && count <= size && static_cast<size_t>(start - base) <= size - count;
}

}  // namespace aclnn_check::provider
