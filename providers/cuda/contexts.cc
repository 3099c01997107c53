// Devices and contexts of the cuda provider over the CUDA runtime: an ACL context is a CUDA
// device's primary context, made current on the calling thread by cudaSetDevice (CUDA's current
// device is per thread, as ACL's current context is). The handle is the provider's own record, so
// two contexts of one device are distinct handles that share the device's memory and streams.
#include <cuda_runtime.h>

#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>

#include "acl/acl_rt.h"
#include "providers/runtime/last_error.h"

namespace aclnn_check::provider {
namespace {

struct CudaContext {
  int device = 0;
};

struct ContextTable {
  std::mutex mutex;
  std::unordered_set<CudaContext*> live;
};

ContextTable& Contexts() {
  static ContextTable table;
  return table;
}

thread_local CudaContext* current_context = nullptr;

aclError Fail(aclError status, std::string message) {
  (void)cudaGetLastError();
  SetLastError(std::move(message));
  return status;
}

}  // namespace
}  // namespace aclnn_check::provider

namespace provider = aclnn_check::provider;

extern "C" {

aclError aclrtGetDeviceCount(uint32_t* count) {
  if (!count) return provider::Fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is null");
  int devices = 0;
  if (const cudaError_t error = cudaGetDeviceCount(&devices); error != cudaSuccess) {
    return provider::Fail(ACL_ERROR_INVALID_DEVICE,
                          std::string("aclrtGetDeviceCount: ") + cudaGetErrorString(error));
  }
  *count = static_cast<uint32_t>(devices);
  return ACL_SUCCESS;
}

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  if (!context) return provider::Fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateContext: context is null");
  if (const cudaError_t error = cudaSetDevice(deviceId); error != cudaSuccess) {
    return provider::Fail(ACL_ERROR_INVALID_DEVICE, "aclrtCreateContext(" +
                                                        std::to_string(deviceId) +
                                                        "): " + cudaGetErrorString(error));
  }
  auto* created = new provider::CudaContext{deviceId};
  {
    provider::ContextTable& table = provider::Contexts();
    std::lock_guard lock(table.mutex);
    table.live.insert(created);
  }
  provider::current_context = created;
  *context = created;
  return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
  auto* handle = static_cast<provider::CudaContext*>(context);
  {
    provider::ContextTable& table = provider::Contexts();
    std::lock_guard lock(table.mutex);
    if (table.live.erase(handle) == 0) {
      return provider::Fail(ACL_ERROR_INVALID_PARAM,
                            "aclrtDestroyContext: not a live context from aclrtCreateContext");
    }
  }
  if (provider::current_context == handle) provider::current_context = nullptr;
  delete handle;
  return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  auto* handle = static_cast<provider::CudaContext*>(context);
  int device = 0;
  {
    provider::ContextTable& table = provider::Contexts();
    std::lock_guard lock(table.mutex);
    if (table.live.count(handle) == 0) {
      return provider::Fail(ACL_ERROR_INVALID_PARAM,
                            "aclrtSetCurrentContext: not a live context from aclrtCreateContext");
    }
    device = handle->device;
  }
  if (const cudaError_t error = cudaSetDevice(device); error != cudaSuccess) {
    return provider::Fail(ACL_ERROR_INVALID_DEVICE,
                          std::string("aclrtSetCurrentContext: ") + cudaGetErrorString(error));
  }
  provider::current_context = handle;
  return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  if (!context) {
    return provider::Fail(ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: context is null");
  }
  if (!provider::current_context) {
    return provider::Fail(ACL_ERROR_RT_CONTEXT_NULL,
                          "aclrtGetCurrentContext: this thread has no context from "
                          "aclrtCreateContext");
  }
  *context = provider::current_context;
  return ACL_SUCCESS;
}

}  // extern "C"
