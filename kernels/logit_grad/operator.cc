#include "aclnnop/aclnn_logit_grad.h"
#include "common/abi_call.h"
#include "logit_grad/logit_grad.h"

namespace aclnn_check {
extern const char kDescription_logit_grad[];

namespace logit_grad {
namespace {

constexpr TensorSlot kTensors[] = {
    {"x", SlotRole::kInput},
    {"dy", SlotRole::kInput},
    {"out", SlotRole::kOutput},
};

constexpr ParamSlot kParams[] = {
    {"eps", ParamKind::kDouble},
};

aclnnStatus Invoke(void* symbol, const AbiCall& call) {
  auto function = reinterpret_cast<decltype(&aclnnLogitGradGetWorkspaceSize)>(symbol);
  return function(call.tensors[kX], call.tensors[kDy], std::get<double>(call.params[kEps]),
                  call.tensors[kOut], call.workspace_size, call.executor);
}

}  // namespace
}  // namespace logit_grad

extern const OperatorDef kOperator_logit_grad{
    kDescription_logit_grad, logit_grad::kTensors,
    logit_grad::kParams,     logit_grad::Validate,
    logit_grad::Reference,   logit_grad::WorkspaceBytes,
    logit_grad::SimdCompute,     logit_grad::Invoke,
    logit_grad::Plan,        nullptr,
};

}  // namespace aclnn_check
