// The ref provider computes with the float64 reference and rounds each output once.
#include "providers/runtime/backend.h"

namespace aclnn_check::provider {
namespace {

uint64_t WorkspaceBytes(const Operator&, const OpArgs&) { return 0; }

void Run(const Operator& op, const OpArgs& args, void*) {
  const ReferenceResult result = op.Reference(args);
  for (size_t slot = 0; slot < result.outputs.size(); ++slot) {
    const ReferenceOutput& output = result.outputs[slot];
    const TensorView* view = args.tensor(slot);
    if (output.computed && view) WriteFromDouble(*view, output.value);
  }
}

}  // namespace

const ComputeBackend& ActiveBackend() {
  static const ComputeBackend backend{"ref", WorkspaceBytes, Run};
  return backend;
}

}  // namespace aclnn_check::provider
