// aclnnLogitGrad: generated header in CANN (aclnnop/aclnn_logit_grad.h, CANN 8.1.RC1).
#pragma once

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) aclnnStatus aclnnLogitGradGetWorkspaceSize(
    const aclTensor* x, const aclTensor* dy, double eps, const aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);

__attribute__((visibility("default"))) aclnnStatus aclnnLogitGrad(void* workspace,
                                                                  uint64_t workspaceSize,
                                                                  aclOpExecutor* executor,
                                                                  aclrtStream stream);
#ifdef __cplusplus
}
#endif
