#include "aclnnop/aclnn_logit_grad.h"
#include "catalogue/abi_call.h"
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
    .description_json = kDescription_logit_grad,
    .tensors = logit_grad::kTensors,
    .params = logit_grad::kParams,
    .validate = logit_grad::Validate,
    .reference = logit_grad::Reference,
    .call_rules = logit_grad::CallRules,
    .invoke_get_workspace_size = logit_grad::Invoke,
    .plan = logit_grad::Plan,
};

}  // namespace aclnn_check
