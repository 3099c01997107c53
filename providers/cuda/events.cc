// The event calls of acl_rt.h in the cuda provider: an aclrtEvent is a cudaEvent_t with timing
// on (cudaEventDefault), recorded on the caller's cudaStream_t. What CUDA reports as an event not
// yet recorded or not complete is returned as CANN's codes for the same states.
#include <cuda_runtime.h>

#include <string>

#include "acl/acl_rt.h"
#include "providers/runtime/last_error.h"

namespace {

using aclnn_check::provider::SetLastError;

aclError EventFailed(const char* call, cudaError_t error) {
  (void)cudaGetLastError();  // a non-sticky error must not be blamed on the next call
  SetLastError(std::string(call) + ": " + cudaGetErrorName(error) + ": " +
               cudaGetErrorString(error));
  switch (error) {
    case cudaErrorNotReady:
      return ACL_ERROR_RT_EVENT_NOT_COMPLETE;
    case cudaErrorInvalidResourceHandle:
      return ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID;  // recorded never, or without timing
    case cudaErrorInvalidValue:
      return ACL_ERROR_INVALID_PARAM;
    default:
      return ACL_ERROR_FAILURE;
  }
}

aclError CheckEvent(const char* call, cudaError_t error) {
  return error == cudaSuccess ? ACL_SUCCESS : EventFailed(call, error);
}

aclError NullEvent(const char* function) {
  SetLastError(std::string(function) + ": event is null");
  return ACL_ERROR_INVALID_PARAM;
}

}  // namespace

extern "C" {

aclError aclrtCreateEvent(aclrtEvent* event) {
  if (!event) return NullEvent("aclrtCreateEvent");
  cudaEvent_t created = nullptr;
  if (const aclError error =
          CheckEvent("aclrtCreateEvent: cudaEventCreate", cudaEventCreate(&created))) {
    return error;
  }
  *event = created;
  return ACL_SUCCESS;
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  if (!event) return NullEvent("aclrtDestroyEvent");
  return CheckEvent("aclrtDestroyEvent: cudaEventDestroy",
                    cudaEventDestroy(static_cast<cudaEvent_t>(event)));
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  if (!event) return NullEvent("aclrtRecordEvent");
  return CheckEvent(
      "aclrtRecordEvent: cudaEventRecord",
      cudaEventRecord(static_cast<cudaEvent_t>(event), static_cast<cudaStream_t>(stream)));
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  if (!event) return NullEvent("aclrtSynchronizeEvent");
  return CheckEvent("aclrtSynchronizeEvent: cudaEventSynchronize",
                    cudaEventSynchronize(static_cast<cudaEvent_t>(event)));
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  if (!ms || !startEvent || !endEvent) {
    SetLastError("aclrtEventElapsedTime: ms, startEvent or endEvent is null");
    return ACL_ERROR_INVALID_PARAM;
  }
  if (const aclError error =
          CheckEvent("aclrtEventElapsedTime: cudaEventElapsedTime",
                     cudaEventElapsedTime(ms, static_cast<cudaEvent_t>(startEvent),
                                          static_cast<cudaEvent_t>(endEvent)))) {
    return error;
  }
  if (*ms < 0) {
    SetLastError("aclrtEventElapsedTime: endEvent was reached before startEvent");
    return ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL;
  }
  return ACL_SUCCESS;
}

}  // extern "C"
