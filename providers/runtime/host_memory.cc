#include "providers/runtime/host_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
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
  void* allocated;  // what malloc returned, up to kAlignment - 1 bytes before the start, or the
                    // read-write mapping of a strict allocation
  size_t mapped = 0;  // bytes of each mapping of a strict allocation; 0 for malloc'd memory
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

// The two mappings of one memfd: {the program's PROT_NONE address, the read-write alias}.
bool MapTwice(size_t mapped, void** address, void** access) {
  const int fd = memfd_create("aclnn_cpu_device", MFD_CLOEXEC);
  if (fd < 0) return false;
  bool ok = ftruncate(fd, static_cast<off_t>(mapped)) == 0;
  void* none = ok ? mmap(nullptr, mapped, PROT_NONE, MAP_SHARED, fd, 0) : MAP_FAILED;
  void* rw = none != MAP_FAILED ? mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                                : MAP_FAILED;
  close(fd);  // the mappings keep the memory
  ok = rw != MAP_FAILED;
  if (!ok && none != MAP_FAILED) munmap(none, mapped);
  *address = none;
  *access = rw;
  return ok;
}

// The allocation holding `start`, or end(). Needs the registry's lock.
auto Containing(Registry& registry, const char* start) {
  auto after = registry.allocations.upper_bound(start);
  if (after == registry.allocations.begin()) return registry.allocations.end();
  auto found = std::prev(after);
  const size_t extent = found->second.mapped ? found->second.mapped : found->second.size;
  return static_cast<size_t>(start - found->first) < extent ? found : registry.allocations.end();
}

}  // namespace

bool StrictDeviceMemory() {
  static const bool strict = [] {
    const char* value = std::getenv("ACLNN_CPU_STRICT_MEMORY");
    return value && std::strcmp(value, "1") == 0;
  }();
  return strict;
}

void* AllocateMemory(MemoryKind kind, size_t size) {
  Registry& registry = RegistryOf(kind);
  if (kind == MemoryKind::kDevice && StrictDeviceMemory()) {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t mapped = (size + page - 1) / page * page;
    void* address = nullptr;
    void* access = nullptr;
    if (!MapTwice(mapped, &address, &access)) return nullptr;
    std::lock_guard lock(registry.mutex);
    registry.allocations[static_cast<const char*>(address)] = {size, access, mapped};
    return address;
  }
  const size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
  void* allocated = std::malloc(rounded + kAlignment - 1);
  if (!allocated) return nullptr;
  const uintptr_t address = reinterpret_cast<uintptr_t>(allocated);
  void* memory = reinterpret_cast<void*>((address + kAlignment - 1) / kAlignment * kAlignment);
  std::lock_guard lock(registry.mutex);
  registry.allocations[static_cast<const char*>(memory)] = {size, allocated};
  return memory;
}

bool ReleaseMemory(MemoryKind kind, void* pointer) {
  Registry& registry = RegistryOf(kind);
  Allocation released{};
  {
    std::lock_guard lock(registry.mutex);
    const auto found = registry.allocations.find(static_cast<const char*>(pointer));
    if (found == registry.allocations.end()) return false;
    released = found->second;
    registry.allocations.erase(found);
  }
  if (released.mapped) {
    munmap(pointer, released.mapped);
    munmap(released.allocated, released.mapped);
  } else {
    std::free(released.allocated);
  }
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

void* HostAccess(const void* pointer) {
  if (!StrictDeviceMemory() || !pointer) return const_cast<void*>(pointer);
  Registry& registry = RegistryOf(MemoryKind::kDevice);
  const char* start = static_cast<const char*>(pointer);
  std::lock_guard lock(registry.mutex);
  const auto found = Containing(registry, start);
  if (found == registry.allocations.end()) return const_cast<void*>(pointer);
  return static_cast<char*>(found->second.allocated) + (start - found->first);
}

}  // namespace aclnn_check::provider
