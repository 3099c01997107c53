// aclnnHardswishBackward: hand-written header in CANN
// (ops-nn activation/hard_swish_grad/op_host/op_api/aclnn_hardswish_backward.h).
#pragma once

#include "aclnn/acl_meta.h"

extern "C" {

__attribute__((visibility("default"))) aclnnStatus aclnnHardswishBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor);

__attribute__((visibility("default"))) aclnnStatus aclnnHardswishBackward(
    void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, const aclrtStream stream);
}
