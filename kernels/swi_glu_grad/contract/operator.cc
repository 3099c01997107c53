#include "aclnnop/aclnn_swi_glu_grad.h"
#include "catalogue/abi_call.h"
#include "swi_glu_grad/swi_glu_grad.h"

namespace aclnn_check {
extern const char kDescription_swi_glu_grad[];

namespace swi_glu_grad {
namespace {

constexpr TensorSlot kTensors[] = {
    {"yGrad", SlotRole::kInput},
    {"x", SlotRole::kInput},
    {"out", SlotRole::kOutput},
};

constexpr ParamSlot kParams[] = {
    {"dim", ParamKind::kInt64},
};

aclnnStatus Invoke(void* symbol, const AbiCall& call) {
  auto function = reinterpret_cast<decltype(&aclnnSwiGluGradGetWorkspaceSize)>(symbol);
  const int64_t* dim = std::get_if<int64_t>(&call.params[kDim]);
  return function(call.tensors[kYGrad], call.tensors[kX], dim ? *dim : kDefaultDim,
                  call.tensors[kOut], call.workspace_size, call.executor);
}

}  // namespace
}  // namespace swi_glu_grad

extern const OperatorDef kOperator_swi_glu_grad{
    .description_json = kDescription_swi_glu_grad,
    .tensors = swi_glu_grad::kTensors,
    .params = swi_glu_grad::kParams,
    .validate = swi_glu_grad::Validate,
    .reference = swi_glu_grad::Reference,
    .call_rules = swi_glu_grad::CallRules,
    .invoke_get_workspace_size = swi_glu_grad::Invoke,
    .plan = swi_glu_grad::Plan,
};

}  // namespace aclnn_check
