#include <memory>
#include <utility>

#include "providers/runtime/backend.h"
#include "providers/runtime/device_runtime.h"
#include "providers/runtime/host_memory.h"
#include "providers/runtime/last_error.h"
#include "providers/runtime/stream_launch.h"

namespace aclnn_check::provider {
namespace {

thread_local int32_t running_device = 0;

}  // namespace

int32_t DeviceOfRunningLaunch() { return running_device; }

aclnnStatus LaunchOnStream(const Operator& op, OpArgs args, void* workspace, aclrtStream stream) {
  const StreamTarget target = FindStream(stream);
  if (!target.queue) {
    SetLastError(stream ? "stream is not a live stream from aclrtCreateStream"
                        : "the default stream (null) needs a context on this thread (call "
                          "aclrtSetDevice or aclrtCreateContext first)");
    return ACLNN_ERR_RUNTIME_ERROR;
  }
  // The kernels reach strict device memory through its read-write mapping.
  for (std::optional<TensorView>& tensor : args.tensors) {
    if (tensor) tensor->data = HostAccess(tensor->data);
  }
  workspace = HostAccess(workspace);
  target.queue->Enqueue([&op, args = std::move(args), workspace, device = target.device] {
    running_device = device;
    ActiveBackend().run(op, args, workspace);
  });
  return ACLNN_SUCCESS;
}

}  // namespace aclnn_check::provider
