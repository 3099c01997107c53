// One operator call in ABI form, as the harness passes it to a provider's GetWorkspaceSize
// symbol: handles created by that provider, in the order of the operator's slots.
#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include "aclnn/acl_meta.h"

namespace aclnn_check {

// A host parameter in ABI form; the pointer kinds may be null.
using AbiParam = std::variant<int64_t, double, char*, const aclIntArray*, const aclBoolArray*>;

struct AbiCall {
  std::vector<aclTensor*> tensors;  // per TensorSlot; nullptr allowed
  std::vector<AbiParam> params;     // per ParamSlot
  uint64_t* workspace_size = nullptr;
  aclOpExecutor** executor = nullptr;
};

}  // namespace aclnn_check
