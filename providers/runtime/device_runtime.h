// Devices, contexts and streams of the emulated runtime, as CANN documents them (hicann/runtime
// docs/zh/api_ref 04-06): aclrtSetDevice counts references and makes the device's default context
// (shared by every thread) current on the calling thread; aclrtResetDevice releases the default
// context and its streams when the count reaches 0; aclrtCreateContext makes an explicit context
// current; each thread has its own current context; a stream belongs to the context current when
// it was created; every context has a default stream (the null handle), shared by the threads
// that share the context and released with it (hicann/runtime docs/zh/dev_guide/
// 03-02_stream_management.md). Nothing here knows where device memory lives.
#pragma once

#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "providers/runtime/stream.h"

namespace aclnn_check::provider {

// The emulator has ACLNN_CPU_DEVICES devices (default 1), ids 0 to count - 1, read once.
inline constexpr int32_t kMaxEmulatedDevices = 64;
// The count, or 0 when ACLNN_CPU_DEVICES is not a whole number from 1 to kMaxEmulatedDevices
// (then the message of aclGetRecentErrMsg names the variable).
int32_t EmulatedDeviceCount();

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
// A null stream is the default stream of the calling thread's current context.
aclError SynchronizeStream(aclrtStream stream);

// Where a launch goes: the queue behind a stream handle (null: the current context's default
// stream) and the device it belongs to; queue is null for a handle that is not a live stream, or
// a null handle on a thread without a context.
struct StreamTarget {
  std::shared_ptr<Stream> queue;
  int32_t device = 0;
};
StreamTarget FindStream(aclrtStream stream);

}  // namespace aclnn_check::provider
