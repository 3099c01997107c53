#include "aclnnop/aclnn_hardswish_backward.h"
#include "catalogue/abi_call.h"
#include "hardswish_backward/hardswish_backward.h"

namespace aclnn_check {
extern const char kDescription_hardswish_backward[];

namespace hardswish_backward {
namespace {

constexpr TensorSlot kTensors[] = {
    {"gradOutput", SlotRole::kInput},
    {"self", SlotRole::kInput},
    {"out", SlotRole::kOutput},
};

aclnnStatus Invoke(void* symbol, const AbiCall& call) {
  auto function = reinterpret_cast<decltype(&aclnnHardswishBackwardGetWorkspaceSize)>(symbol);
  return function(call.tensors[kGradOutput], call.tensors[kSelf], call.tensors[kOut],
                  call.workspace_size, call.executor);
}

}  // namespace
}  // namespace hardswish_backward

extern const OperatorDef kOperator_hardswish_backward{
    .description_json = kDescription_hardswish_backward,
    .tensors = hardswish_backward::kTensors,
    .validate = hardswish_backward::Validate,
    .reference = hardswish_backward::Reference,
    .call_rules = hardswish_backward::CallRules,
    .invoke_get_workspace_size = hardswish_backward::Invoke,
    .plan = hardswish_backward::Plan,
};

}  // namespace aclnn_check
