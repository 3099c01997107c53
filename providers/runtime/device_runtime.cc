#include "providers/runtime/device_runtime.h"

#include <array>
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "providers/runtime/last_error.h"

namespace aclnn_check::provider {
namespace {

struct Context {
  int32_t device = 0;
  bool is_default = false;
  std::shared_ptr<Stream> default_stream = std::make_shared<Stream>();
};

struct Device {
  int64_t references = 0;  // aclrtSetDevice calls not yet matched by aclrtResetDevice
  Context* default_context = nullptr;
};

struct StreamEntry {
  std::shared_ptr<Stream> queue;
  Context* context = nullptr;
};

// One lock for the whole table: these calls are rare next to operator calls.
struct RuntimeTable {
  std::mutex mutex;
  std::array<Device, kMaxEmulatedDevices> devices;
  std::unordered_map<Context*, std::unique_ptr<Context>> contexts;
  std::unordered_map<void*, StreamEntry> streams;
};

RuntimeTable& Table() {
  static RuntimeTable table;
  return table;
}

thread_local Context* current_context = nullptr;

aclError Fail(aclError status, std::string message) {
  SetLastError(std::move(message));
  return status;
}

int32_t ParseDeviceCount() {
  const char* text = std::getenv("ACLNN_CPU_DEVICES");
  if (!text || !*text) return 1;
  char* end = nullptr;
  const long count = std::strtol(text, &end, 10);
  if (*end != '\0' || count < 1 || count > kMaxEmulatedDevices) return 0;
  return static_cast<int32_t>(count);
}

bool ValidDevice(int32_t device) { return device >= 0 && device < EmulatedDeviceCount(); }

aclError InvalidDevice(const char* function, int32_t device) {
  const int32_t count = EmulatedDeviceCount();
  if (count == 0) return ACL_ERROR_RT_INVALID_DEVICEID;  // EmulatedDeviceCount set the message
  return Fail(ACL_ERROR_RT_INVALID_DEVICEID,
              std::string(function) + ": device " + std::to_string(device) +
                  " does not exist (the emulator has " + std::to_string(count) +
                  " device(s), ids 0 to " + std::to_string(count - 1) +
                  "; ACLNN_CPU_DEVICES sets the count)");
}

// The calling thread's context if it is still alive. Needs the table's lock.
Context* LiveCurrentContext(RuntimeTable& table) {
  if (current_context && table.contexts.count(current_context) == 0) current_context = nullptr;
  return current_context;
}

// Unregisters the context's streams and returns their queues, so that the caller runs what is
// still pending without holding the lock (CANN waits for unfinished tasks before releasing).
std::vector<std::shared_ptr<Stream>> TakeStreams(RuntimeTable& table, const Context* context) {
  std::vector<std::shared_ptr<Stream>> taken{context->default_stream};
  for (auto it = table.streams.begin(); it != table.streams.end();) {
    if (it->second.context == context) {
      taken.push_back(std::move(it->second.queue));
      it = table.streams.erase(it);
    } else {
      ++it;
    }
  }
  return taken;
}

void RunAll(const std::vector<std::shared_ptr<Stream>>& queues) {
  for (const auto& queue : queues) queue->Synchronize();
}

}  // namespace

int32_t EmulatedDeviceCount() {
  static const int32_t count = ParseDeviceCount();
  if (count == 0) {
    SetLastError(std::string("ACLNN_CPU_DEVICES='") + std::getenv("ACLNN_CPU_DEVICES") +
                 "': expected a whole number of emulated devices from 1 to " +
                 std::to_string(kMaxEmulatedDevices));
  }
  return count;
}

aclError SetDevice(int32_t device) {
  if (!ValidDevice(device)) return InvalidDevice("aclrtSetDevice", device);
  RuntimeTable& table = Table();
  std::lock_guard lock(table.mutex);
  Device& state = table.devices[device];
  if (!state.default_context) {
    auto context = std::make_unique<Context>(Context{device, true});
    state.default_context = context.get();
    table.contexts.emplace(context.get(), std::move(context));
  }
  ++state.references;
  current_context = state.default_context;
  return ACL_SUCCESS;
}

aclError ResetDevice(int32_t device, bool force) {
  const char* function = force ? "aclrtResetDeviceForce" : "aclrtResetDevice";
  if (!ValidDevice(device)) return InvalidDevice(function, device);
  std::vector<std::shared_ptr<Stream>> released;
  {
    RuntimeTable& table = Table();
    std::lock_guard lock(table.mutex);
    Device& state = table.devices[device];
    if (state.references == 0) {
      return Fail(ACL_ERROR_RT_INVALID_DEVICEID,
                  std::string(function) + ": device " + std::to_string(device) +
                      " was not set with aclrtSetDevice (or is already reset)");
    }
    state.references = force ? 0 : state.references - 1;
    if (state.references > 0) return ACL_SUCCESS;
    released = TakeStreams(table, state.default_context);
    table.contexts.erase(state.default_context);
    state.default_context = nullptr;
  }
  RunAll(released);
  return ACL_SUCCESS;
}

aclError CurrentDevice(int32_t* device) {
  if (!device) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: deviceId is null");
  RuntimeTable& table = Table();
  std::lock_guard lock(table.mutex);
  const Context* context = LiveCurrentContext(table);
  if (!context) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL,
                "aclrtGetDevice: this thread has no device (call aclrtSetDevice first)");
  }
  *device = context->device;
  return ACL_SUCCESS;
}

aclError SynchronizeCurrentDevice() {
  std::vector<std::shared_ptr<Stream>> queues;
  {
    RuntimeTable& table = Table();
    std::lock_guard lock(table.mutex);
    const Context* context = LiveCurrentContext(table);
    if (!context) {
      return Fail(ACL_ERROR_RT_CONTEXT_NULL,
                  "aclrtSynchronizeDevice: this thread has no device (call aclrtSetDevice first)");
    }
    for (const auto& [handle, entry] : table.streams) {
      if (entry.context->device == context->device) queues.push_back(entry.queue);
    }
    for (const auto& [handle, owned] : table.contexts) {
      if (owned->device == context->device) queues.push_back(owned->default_stream);
    }
  }
  RunAll(queues);
  return ACL_SUCCESS;
}

aclError CreateContext(aclrtContext* context, int32_t device) {
  if (!context) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateContext: context is null");
  if (!ValidDevice(device)) return InvalidDevice("aclrtCreateContext", device);
  RuntimeTable& table = Table();
  std::lock_guard lock(table.mutex);
  auto created = std::make_unique<Context>(Context{device, false});
  Context* handle = created.get();
  table.contexts.emplace(handle, std::move(created));
  current_context = handle;
  *context = handle;
  return ACL_SUCCESS;
}

aclError DestroyContext(aclrtContext context) {
  std::vector<std::shared_ptr<Stream>> released;
  {
    RuntimeTable& table = Table();
    std::lock_guard lock(table.mutex);
    auto* handle = static_cast<Context*>(context);
    const auto found = table.contexts.find(handle);
    if (found == table.contexts.end()) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclrtDestroyContext: not a live context from aclrtCreateContext");
    }
    if (found->second->is_default) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclrtDestroyContext: the default context of aclrtSetDevice is released by "
                  "aclrtResetDevice, not destroyed");
    }
    released = TakeStreams(table, handle);
    table.contexts.erase(found);
    if (current_context == handle) current_context = nullptr;
  }
  RunAll(released);
  return ACL_SUCCESS;
}

aclError SetCurrentContext(aclrtContext context) {
  RuntimeTable& table = Table();
  std::lock_guard lock(table.mutex);
  auto* handle = static_cast<Context*>(context);
  if (table.contexts.count(handle) == 0) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtSetCurrentContext: not a live context (destroyed, its device reset, or "
                "never created)");
  }
  current_context = handle;
  return ACL_SUCCESS;
}

aclError GetCurrentContext(aclrtContext* context) {
  if (!context) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: context is null");
  RuntimeTable& table = Table();
  std::lock_guard lock(table.mutex);
  Context* current = LiveCurrentContext(table);
  if (!current) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL,
                "aclrtGetCurrentContext: this thread has no context (call aclrtSetDevice or "
                "aclrtCreateContext first)");
  }
  *context = current;
  return ACL_SUCCESS;
}

aclError CreateStream(aclrtStream* stream) {
  if (!stream) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is null");
  RuntimeTable& table = Table();
  std::lock_guard lock(table.mutex);
  Context* context = LiveCurrentContext(table);
  if (!context) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL,
                "aclrtCreateStream: this thread has no context (call aclrtSetDevice or "
                "aclrtCreateContext first)");
  }
  auto queue = std::make_shared<Stream>();
  void* handle = queue.get();
  table.streams.emplace(handle, StreamEntry{std::move(queue), context});
  *stream = handle;
  return ACL_SUCCESS;
}

aclError DestroyStream(aclrtStream stream) {
  std::shared_ptr<Stream> queue;
  {
    RuntimeTable& table = Table();
    std::lock_guard lock(table.mutex);
    const auto found = table.streams.find(stream);
    if (found == table.streams.end()) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclrtDestroyStream: not a live stream from aclrtCreateStream");
    }
    queue = std::move(found->second.queue);
    table.streams.erase(found);
  }
  queue->Synchronize();
  return ACL_SUCCESS;
}

aclError SynchronizeStream(aclrtStream stream) {
  const std::shared_ptr<Stream> queue = FindStream(stream).queue;
  if (!queue && !stream) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL,
                "aclrtSynchronizeStream: the default stream (null) needs a context on this thread "
                "(call aclrtSetDevice or aclrtCreateContext first)");
  }
  if (!queue) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclrtSynchronizeStream: not a live stream from aclrtCreateStream");
  }
  queue->Synchronize();
  return ACL_SUCCESS;
}

StreamTarget FindStream(aclrtStream stream) {
  RuntimeTable& table = Table();
  std::lock_guard lock(table.mutex);
  if (!stream) {
    const Context* context = LiveCurrentContext(table);
    if (!context) return {};
    return {context->default_stream, context->device};
  }
  const auto found = table.streams.find(stream);
  if (found == table.streams.end()) return {};
  return {found->second.queue, found->second.context->device};
}

}  // namespace aclnn_check::provider
