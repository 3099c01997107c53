// Where an operator's work runs once its execute call has passed: on a stream of the provider's
// memory model. The host model (cpu, ref: host_stream_launch.cc) queues it on the emulated
// runtime's in-order host queues; the cuda provider (providers/cuda/backend.cc) enqueues kernels
// on the CUDA stream itself.
#pragma once

#include "aclnn/acl_meta.h"
#include "catalogue/operator.h"

namespace aclnn_check::provider {

// Queues the work on `stream` (null: the default stream of the calling thread's context) and
// returns the status of the enqueue itself; on failure the message of aclGetRecentErrMsg is set.
aclnnStatus LaunchOnStream(const Operator& op, OpArgs args, void* workspace, aclrtStream stream);

// Host model only: the device of the stream whose launch the calling thread is running (the
// stream threads set it before each launch's work).
int32_t DeviceOfRunningLaunch();

}  // namespace aclnn_check::provider
