// The cpu provider computes like a device: float32 arithmetic, each output rounded once, with
// each operator's SIMD kernel (kernels/<folder>/simd_kernel.cc, the portable kernel.cc on the
// views it does not take).
#include "cpu/cpu_kernel.h"
#include "providers/runtime/backend.h"

namespace aclnn_check::provider {
namespace {

// Every folder has a cpu kernel (the table is generated from the same folders as the catalogue).
const CpuKernel& KernelOf(const Operator& op) { return *FindCpuKernel(op.folder()); }

uint64_t WorkspaceBytes(const Operator& op, const OpArgs& args) {
  return KernelOf(op).workspace_bytes(args);
}

void Run(const Operator& op, const OpArgs& args, void* workspace) {
  KernelOf(op).compute(args, workspace);
}

}  // namespace

const ComputeBackend& ActiveBackend() {
  static const ComputeBackend backend{"cpu", WorkspaceBytes, Run};
  return backend;
}

}  // namespace aclnn_check::provider
