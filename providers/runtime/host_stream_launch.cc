#include <memory>
#include <utility>

#include "providers/runtime/backend.h"
#include "providers/runtime/device_runtime.h"
#include "providers/runtime/last_error.h"
#include "providers/runtime/stream_launch.h"

namespace aclnn_check::provider {

aclnnStatus LaunchOnStream(const Operator& op, OpArgs args, void* workspace, aclrtStream stream) {
  std::shared_ptr<Stream> queue;
  if (stream != nullptr) {
    queue = FindStream(stream);
    if (!queue) {
      SetLastError("stream is not a live stream from aclrtCreateStream");
      return ACLNN_ERR_RUNTIME_ERROR;
    }
  }
  auto work = [&op, args = std::move(args), workspace] {
    ActiveBackend().run(op, args, workspace);
  };
  if (queue) {
    queue->Enqueue(std::move(work));
  } else {
    work();
  }
  return ACLNN_SUCCESS;
}

}  // namespace aclnn_check::provider
