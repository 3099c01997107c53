#include "aclnnop/aclnn_nsa_compress_grad.h"
#include "catalogue/abi_call.h"
#include "nsa_compress_grad/nsa_compress_grad.h"

namespace aclnn_check {
extern const char kDescription_nsa_compress_grad[];

namespace nsa_compress_grad {
namespace {

constexpr TensorSlot kTensors[] = {
    {"outputGrad", SlotRole::kInput},  {"input", SlotRole::kInput},
    {"weight", SlotRole::kInput},      {"inputGrad", SlotRole::kOutput},
    {"weightGrad", SlotRole::kOutput},
};

constexpr ParamSlot kParams[] = {
    {"actSeqLen", ParamKind::kIntArray},   {"compressBlockSize", ParamKind::kInt64},
    {"compressStride", ParamKind::kInt64}, {"actSeqLenType", ParamKind::kInt64},
    {"layout", ParamKind::kString},
};

// A null pointer parameter may arrive as a null pointer of any pointer kind.
template <typename T>
T PointerParam(const AbiParam& param) {
  const T* pointer = std::get_if<T>(&param);
  return pointer ? *pointer : nullptr;
}

int64_t Int64Param(const AbiParam& param) {
  const int64_t* value = std::get_if<int64_t>(&param);
  return value ? *value : 0;
}

aclnnStatus Invoke(void* symbol, const AbiCall& call) {
  auto function = reinterpret_cast<decltype(&aclnnNsaCompressGradGetWorkspaceSize)>(symbol);
  return function(call.tensors[kOutputGrad], call.tensors[kInput], call.tensors[kWeight],
                  PointerParam<const aclIntArray*>(call.params[kActSeqLen]),
                  Int64Param(call.params[kBlockSize]), Int64Param(call.params[kStride]),
                  Int64Param(call.params[kActSeqLenType]),
                  PointerParam<char*>(call.params[kLayout]), call.tensors[kInputGrad],
                  call.tensors[kWeightGrad], call.workspace_size, call.executor);
}

}  // namespace
}  // namespace nsa_compress_grad

extern const OperatorDef kOperator_nsa_compress_grad{
    .description_json = kDescription_nsa_compress_grad,
    .tensors = nsa_compress_grad::kTensors,
    .params = nsa_compress_grad::kParams,
    .validate = nsa_compress_grad::Validate,
    .reference = nsa_compress_grad::Reference,
    .call_rules = nsa_compress_grad::CallRules,
    .invoke_get_workspace_size = nsa_compress_grad::Invoke,
    .plan = nsa_compress_grad::Plan,
};

}  // namespace aclnn_check
