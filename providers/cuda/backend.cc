// The cuda provider computes on an NVIDIA GPU: each operator's cuda_kernel.cu, enqueued on the
// caller's stream (a cudaStream_t). Validation is Operator::Validate, as in the cpu provider.
#include <cuda_runtime.h>

#include <string_view>

#include "aclnn/aclnn_base.h"
#include "cuda/cuda_kernel.h"
#include "providers/runtime/backend.h"
#include "providers/runtime/last_error.h"
#include "providers/runtime/stream_launch.h"

namespace aclnn_check::provider {
namespace {

// kernels/<folder>/cuda_kernel.cu, found through the table generated from the folders
// (cmake/Operators.cmake); an operator without one fails its execute call with 561003.
const CudaKernel* KernelOf(const Operator& op) {
  for (const CudaKernel& kernel : CudaKernels()) {
    if (kernel.folder == op.folder()) return &kernel;
  }
  return nullptr;
}

uint64_t WorkspaceBytes(const Operator& op, const OpArgs& args) {
  const CudaKernel* kernel = KernelOf(op);
  return kernel ? kernel->workspace_bytes(args) : 0;
}

// Unused: LaunchOnStream enqueues the kernels, there is no host work.
void Run(const Operator&, const OpArgs&, void*) {}

}  // namespace

aclnnStatus LaunchOnStream(const Operator& op, OpArgs args, void* workspace, aclrtStream stream) {
  const CudaKernel* kernel = KernelOf(op);
  if (!kernel) {
    SetLastError("the cuda provider has no kernel for " + op.name());
    return ACLNN_ERR_INNER_FIND_KERNEL_ERROR;
  }
  // An error left by earlier asynchronous work would otherwise be blamed on this launch; a sticky
  // one (the context is lost) is reported right here.
  if (const cudaError_t earlier = cudaGetLastError(); earlier != cudaSuccess) {
    SetLastError("aclnn" + op.name() + ": CUDA error before the launch: " +
                 cudaGetErrorString(earlier));
    return ACLNN_ERR_RUNTIME_ERROR;
  }
  kernel->compute(args, workspace, stream);
  if (const cudaError_t launched = cudaGetLastError(); launched != cudaSuccess) {
    SetLastError("aclnn" + op.name() + ": CUDA launch failed: " + cudaGetErrorString(launched));
    return ACLNN_ERR_RUNTIME_ERROR;
  }
  return ACLNN_SUCCESS;
}

const ComputeBackend& ActiveBackend() {
  static const ComputeBackend backend{"cuda", WorkspaceBytes, Run};
  return backend;
}

}  // namespace aclnn_check::provider
