// aclnnLogitGrad(x, dy, eps, out).
#pragma once

#include "catalogue/operator.h"

namespace aclnn_check::logit_grad {

enum Slot : size_t { kX, kDy, kOut };
enum Param : size_t { kEps };

// The eps parameter of a call; a call built without it (tests) uses the CANN document's suggested
// -1, which is also PyTorch's value for eps = None.
inline double EpsOf(const OpArgs& args) {
  const double* eps = kEps < args.params.size() ? args.param<double>(kEps) : nullptr;
  return eps ? *eps : -1.0;
}

CheckOutcome Validate(const Operator& op, const OpArgs& args, Product product);
ReferenceResult Reference(const Operator& op, const OpArgs& args);
// The "call" rules the call exercises: from its shapes and host parameters, never tensor data,
// so they are known before the call (operator.h).
std::vector<RuleTag> CallRules(const Operator& op, const OpArgs& args);
uint64_t WorkspaceBytes(const OpArgs& args);
void Compute(const OpArgs& args, void* workspace);
// The cpu provider's kernel (simd_kernel.cc): Highway SIMD on contiguous views, Compute on others.
uint64_t SimdWorkspaceBytes(const OpArgs& args);
void SimdCompute(const OpArgs& args, void* workspace);
// The cuda provider's kernel (cuda_kernel.cu, built only where CMake finds a CUDA compiler):
// enqueues the work on `stream` (a cudaStream_t) over device memory.
uint64_t CudaWorkspaceBytes(const OpArgs& args);
void CudaCompute(const OpArgs& args, void* workspace, void* stream);
std::optional<CallPlan> Plan(const nlohmann::json& axes, DType dtype, std::string* error);

}  // namespace aclnn_check::logit_grad
