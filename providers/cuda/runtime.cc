// The ACL runtime of the cuda provider over the CUDA runtime: device memory is cudaMalloc'd
// (never managed), aclrtMemcpy is cudaMemcpy with CANN's copy kinds, a stream is a cudaStream_t.
// A CUDA error is returned as an ACL error with the CUDA error text in aclGetRecentErrMsg, never
// an abort.
#include <cuda_runtime.h>

#include <cstring>
#include <string>

#include "acl/acl_rt.h"
#include "providers/runtime/last_error.h"

namespace aclnn_check::provider {
namespace {

// ACL_ERROR_BAD_ALLOC for out-of-memory, ACL_ERROR_INVALID_PARAM for what the caller passed,
// ACL_ERROR_INVALID_DEVICE for a missing or unusable device, ACL_ERROR_FAILURE for the rest.
aclError Failed(const char* call, cudaError_t error) {
  (void)cudaGetLastError();  // clear a non-sticky error so later calls start clean
  SetLastError(std::string(call) + ": " + cudaGetErrorName(error) + ": " + cudaGetErrorString(error));
  switch (error) {
    case cudaErrorMemoryAllocation:
      return ACL_ERROR_BAD_ALLOC;
    case cudaErrorInvalidValue:
    case cudaErrorInvalidDevicePointer:
    case cudaErrorInvalidMemcpyDirection:
      return ACL_ERROR_INVALID_PARAM;
    case cudaErrorNoDevice:
    case cudaErrorInvalidDevice:
    case cudaErrorInsufficientDriver:
      return ACL_ERROR_INVALID_DEVICE;
    default:
      return ACL_ERROR_FAILURE;
  }
}

aclError Check(const char* call, cudaError_t error) {
  return error == cudaSuccess ? ACL_SUCCESS : Failed(call, error);
}

}  // namespace
}  // namespace aclnn_check::provider

using aclnn_check::provider::Check;
using aclnn_check::provider::SetLastError;

extern "C" {

aclError aclrtSetDevice(int32_t device_id) {
  int count = 0;
  if (const aclError error = Check("aclrtSetDevice: cudaGetDeviceCount", cudaGetDeviceCount(&count)))
    return error;
  if (device_id < 0 || device_id >= count) {
    SetLastError("aclrtSetDevice(" + std::to_string(device_id) + "): " + std::to_string(count) +
                 " CUDA device(s)");
    return ACL_ERROR_INVALID_DEVICE;
  }
  return Check("aclrtSetDevice: cudaSetDevice", cudaSetDevice(device_id));
}

aclError aclrtResetDevice(int32_t device_id) {
  int current = -1;
  if (const aclError error = Check("aclrtResetDevice: cudaGetDevice", cudaGetDevice(&current)))
    return error;
  if (device_id != current) {
    SetLastError("aclrtResetDevice(" + std::to_string(device_id) + "): the current device is " +
                 std::to_string(current));
    return ACL_ERROR_INVALID_DEVICE;
  }
  // Leaves the primary context alone: other allocations of this process may still live in it.
  return Check("aclrtResetDevice: cudaDeviceSynchronize", cudaDeviceSynchronize());
}

aclError aclrtMalloc(void** pointer, size_t size, aclrtMemMallocPolicy) {
  if (!pointer || size == 0) {
    SetLastError("aclrtMalloc: null result pointer or size 0");
    return ACL_ERROR_INVALID_PARAM;
  }
  return Check("aclrtMalloc: cudaMalloc", cudaMalloc(pointer, size));
}

aclError aclrtFree(void* pointer) {
  if (!pointer) {
    SetLastError("aclrtFree: null pointer");
    return ACL_ERROR_INVALID_PARAM;
  }
  return Check("aclrtFree: cudaFree", cudaFree(pointer));
}

aclError aclrtMemcpy(void* dst, size_t dest_max, const void* src, size_t count,
                     aclrtMemcpyKind kind) {
  if (!dst || !src || count > dest_max) {
    SetLastError("aclrtMemcpy: null pointer or count larger than destMax");
    return ACL_ERROR_INVALID_PARAM;
  }
  // A C caller may pass any int: read the bits, since loading a value outside the enumerators'
  // range as the enum type is undefined in C++ (UBSan's -fsanitize=enum), as the host runtime does.
  int raw_kind = 0;
  static_assert(sizeof raw_kind == sizeof kind);
  std::memcpy(&raw_kind, &kind, sizeof raw_kind);
  cudaMemcpyKind cuda_kind;
  switch (raw_kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
      cuda_kind = cudaMemcpyHostToHost;
      break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
      cuda_kind = cudaMemcpyHostToDevice;
      break;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      cuda_kind = cudaMemcpyDeviceToHost;
      break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
      cuda_kind = cudaMemcpyDeviceToDevice;
      break;
    case ACL_MEMCPY_DEFAULT:
      cuda_kind = cudaMemcpyDefault;  // the direction from the pointers (unified addressing)
      break;
    default:
      SetLastError("aclrtMemcpy: kind " + std::to_string(raw_kind) + " is not an aclrtMemcpyKind");
      return ACL_ERROR_INVALID_PARAM;
  }
  // A blocking stream (aclrtCreateStream) waits for this copy even where cudaMemcpy returns
  // before a pageable upload has reached the device.
  return Check("aclrtMemcpy: cudaMemcpy", cudaMemcpy(dst, src, count, cuda_kind));
}

aclError aclrtCreateStream(aclrtStream* stream) {
  if (!stream) return ACL_ERROR_INVALID_PARAM;
  cudaStream_t created = nullptr;
  if (const aclError error =
          Check("aclrtCreateStream: cudaStreamCreate", cudaStreamCreate(&created))) {
    return error;
  }
  *stream = created;
  return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
  if (!stream) return ACL_ERROR_INVALID_PARAM;
  const auto cuda_stream = static_cast<cudaStream_t>(stream);
  if (const aclError error =
          Check("aclrtDestroyStream: cudaStreamSynchronize", cudaStreamSynchronize(cuda_stream))) {
    cudaStreamDestroy(cuda_stream);
    return error;
  }
  return Check("aclrtDestroyStream: cudaStreamDestroy", cudaStreamDestroy(cuda_stream));
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  return Check("aclrtSynchronizeStream: cudaStreamSynchronize",
               cudaStreamSynchronize(static_cast<cudaStream_t>(stream)));
}

}  // extern "C"
