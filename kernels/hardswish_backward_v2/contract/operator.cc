#include "aclnnop/aclnn_hardswish_backward_v2.h"
#include "catalogue/abi_call.h"
#include "hardswish_backward_v2/hardswish_backward_v2.h"

namespace aclnn_check {
extern const char kDescription_hardswish_backward_v2[];

namespace hardswish_backward_v2 {
namespace {

constexpr TensorSlot kTensors[] = {
    {"gradOutput", SlotRole::kInput},
    {"self", SlotRole::kInput},
    {"out", SlotRole::kOutput},
};

aclnnStatus Invoke(void* symbol, const AbiCall& call) {
  auto function = reinterpret_cast<decltype(&aclnnHardswishBackwardV2GetWorkspaceSize)>(symbol);
  return function(call.tensors[kGradOutput], call.tensors[kSelf], call.tensors[kOut],
                  call.workspace_size, call.executor);
}

}  // namespace
}  // namespace hardswish_backward_v2

extern const OperatorDef kOperator_hardswish_backward_v2{
    .description_json = kDescription_hardswish_backward_v2,
    .tensors = hardswish_backward_v2::kTensors,
    .validate = hardswish_backward_v2::Validate,
    .reference = hardswish_backward_v2::Reference,
    .call_rules = hardswish_backward_v2::CallRules,
    .invoke_get_workspace_size = hardswish_backward_v2::Invoke,
    .plan = hardswish_backward_v2::Plan,
};

}  // namespace aclnn_check
