// The device, context and stream calls of acl_rt.h, over device_runtime.h.
#include <string>

#include "acl/acl_rt.h"
#include "providers/runtime/device_runtime.h"
#include "providers/runtime/last_error.h"

namespace provider = aclnn_check::provider;

extern "C" {

aclError aclrtSetDevice(int32_t deviceId) { return provider::SetDevice(deviceId); }
aclError aclrtResetDevice(int32_t deviceId) { return provider::ResetDevice(deviceId, false); }
aclError aclrtResetDeviceForce(int32_t deviceId) { return provider::ResetDevice(deviceId, true); }
aclError aclrtGetDevice(int32_t* deviceId) { return provider::CurrentDevice(deviceId); }
aclError aclrtSynchronizeDevice(void) { return provider::SynchronizeCurrentDevice(); }

aclError aclrtGetDeviceCount(uint32_t* count) {
  if (!count) {
    provider::SetLastError("aclrtGetDeviceCount: count is null");
    return ACL_ERROR_INVALID_PARAM;
  }
  const int32_t emulated = provider::EmulatedDeviceCount();
  if (emulated == 0) return ACL_ERROR_INVALID_PARAM;  // the message names ACLNN_CPU_DEVICES
  *count = static_cast<uint32_t>(emulated);
  return ACL_SUCCESS;
}

// The program runs on the host and drives a device: CANN's "EP" form.
aclError aclrtGetRunMode(aclrtRunMode* runMode) {
  if (!runMode) {
    provider::SetLastError("aclrtGetRunMode: runMode is null");
    return ACL_ERROR_INVALID_PARAM;
  }
  *runMode = ACL_HOST;
  return ACL_SUCCESS;
}

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  return provider::CreateContext(context, deviceId);
}
aclError aclrtDestroyContext(aclrtContext context) { return provider::DestroyContext(context); }
aclError aclrtSetCurrentContext(aclrtContext context) {
  return provider::SetCurrentContext(context);
}
aclError aclrtGetCurrentContext(aclrtContext* context) {
  return provider::GetCurrentContext(context);
}

aclError aclrtCreateStream(aclrtStream* stream) { return provider::CreateStream(stream); }
aclError aclrtDestroyStream(aclrtStream stream) { return provider::DestroyStream(stream); }
aclError aclrtSynchronizeStream(aclrtStream stream) { return provider::SynchronizeStream(stream); }

// The emulator waits for the work whatever the timeout (its work always ends); -1 means wait for
// ever, and smaller values are invalid.
aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  if (timeout < -1) {
    provider::SetLastError("aclrtSynchronizeStreamWithTimeout: timeout " +
                           std::to_string(timeout) + " is below -1");
    return ACL_ERROR_INVALID_PARAM;
  }
  return provider::SynchronizeStream(stream);
}

}  // extern "C"
