// The functions every operator folder defines in its namespace aclnn_check::<folder>, declared
// once here: kernels/<folder>/<folder>.h opens its namespace and says
// ACLNN_OPERATOR_FUNCTIONS(), then declares what is its own (slots, shared helpers). Which file
// defines each, and which library compiles it, is the folder's routing (docs/ARCHITECTURE.md,
// "The operator folder"). A macro rather than a shared header included inside the namespace:
// the declarations must land in each folder's own namespace, where the generated tables
// (cmake/Operators.cmake) look them up by the folder's name.
#pragma once

#include "catalogue/operator.h"

// contract/: Validate (validate.cc), Reference (reference.cc), CallRules (the "call" rules the
// call exercises, from its shapes and host parameters, never tensor data, so they are known
// before the call: operator.h), Plan (plan.cc).
// kernel.cc: WorkspaceBytes and Compute, the cpu provider's portable kernel.
// simd_kernel.cc: SimdWorkspaceBytes and SimdCompute, the cpu provider's Highway kernel on the
// views it takes (Compute on the others).
// cuda_kernel.cu (built only where CMake finds a CUDA compiler): CudaWorkspaceBytes and
// CudaCompute, which enqueue the work on `stream` (a cudaStream_t) over device memory.
#define ACLNN_OPERATOR_FUNCTIONS()                                                              \
  CheckOutcome Validate(const Operator& op, const OpArgs& args, Product product);             \
  ReferenceResult Reference(const Operator& op, const OpArgs& args);                          \
  std::vector<RuleTag> CallRules(const Operator& op, const OpArgs& args);                     \
  std::optional<CallPlan> Plan(const nlohmann::json& axes, DType dtype, std::string* error);  \
  uint64_t WorkspaceBytes(const OpArgs& args);                                                \
  void Compute(const OpArgs& args, void* workspace);                                          \
  uint64_t SimdWorkspaceBytes(const OpArgs& args);                                            \
  void SimdCompute(const OpArgs& args, void* workspace);                                      \
  uint64_t CudaWorkspaceBytes(const OpArgs& args);                                            \
  void CudaCompute(const OpArgs& args, void* workspace, void* stream)
