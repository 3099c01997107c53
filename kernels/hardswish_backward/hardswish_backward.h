// aclnnHardswishBackward(gradOutput, self, out).
#pragma once

#include "common/operator.h"

namespace aclnn_check::hardswish_backward {

enum Slot : size_t { kGradOutput, kSelf, kOut };

CheckOutcome Validate(const Operator& op, const OpArgs& args, Product product);
ReferenceResult Reference(const Operator& op, const OpArgs& args);
uint64_t WorkspaceBytes(const OpArgs& args);
void Compute(const OpArgs& args, void* workspace);
// The cpu provider's kernel (simd_kernel.cc): Highway SIMD on contiguous views, Compute on others.
void SimdCompute(const OpArgs& args, void* workspace);
std::optional<CallPlan> Plan(const nlohmann::json& axes, DType dtype, std::string* error);

}  // namespace aclnn_check::hardswish_backward
