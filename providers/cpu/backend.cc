// The cpu provider computes like a device: float32 arithmetic, each output rounded once.
#include "providers/common/backend.h"

namespace aclnn_check::provider {
namespace {

uint64_t WorkspaceBytes(const Operator& op, const OpArgs& args) {
  return op.def().workspace_bytes(args);
}

void Run(const Operator& op, const OpArgs& args, void* workspace) {
  op.def().compute(args, workspace);
}

}  // namespace

const ComputeBackend& ActiveBackend() {
  static const ComputeBackend backend{"cpu", WorkspaceBytes, Run};
  return backend;
}

}  // namespace aclnn_check::provider
