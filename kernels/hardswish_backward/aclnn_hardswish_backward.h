// aclnnHardswishBackward: hand-written header in CANN
// (ops-nn activation/hard_swish_grad/op_host/op_api/aclnn_hardswish_backward.h).
#pragma once

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnHardswishBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor);

ACLNN_API aclnnStatus aclnnHardswishBackward(
    void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, const aclrtStream stream);
#ifdef __cplusplus
}
#endif
