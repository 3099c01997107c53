// Devices, contexts and streams of the emulated runtime, as CANN documents them (hicann/runtime
// docs/zh/api_ref 04-06): aclrtSetDevice counts references and makes the device's default context
// (shared by every thread) current on the calling thread; aclrtResetDevice releases the default
// context and its streams when the count reaches 0; aclrtCreateContext makes an explicit context
// current; each thread has its own current context; a stream belongs to the context current when
// it was created. Nothing here knows where device memory lives, so any backend can keep it.
#pragma once

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "providers/runtime/stream.h"

namespace aclnn_check::provider {

// The emulator has one device, id 0.
inline constexpr int32_t kEmulatedDeviceCount = 1;

// Every function returns CANN's status and, on failure, sets the message of aclGetRecentErrMsg.
aclError SetDevice(int32_t device);
// force: aclrtResetDeviceForce, which releases the device whatever the count.
aclError ResetDevice(int32_t device, bool force);
aclError CurrentDevice(int32_t* device);
aclError SynchronizeCurrentDevice();

aclError CreateContext(aclrtContext* context, int32_t device);
aclError DestroyContext(aclrtContext context);
aclError SetCurrentContext(aclrtContext context);
aclError GetCurrentContext(aclrtContext* context);

aclError CreateStream(aclrtStream* stream);
aclError DestroyStream(aclrtStream stream);
aclError SynchronizeStream(aclrtStream stream);

// The queue behind a stream handle; nullptr for a handle that is not a live stream.
std::shared_ptr<Stream> FindStream(aclrtStream stream);

}  // namespace aclnn_check::provider
