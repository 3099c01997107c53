// aclnnSwiGluGrad: generated header in CANN (aclnnop/aclnn_swi_glu_grad.h, CANN 8.1.RC1).
#pragma once

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) aclnnStatus aclnnSwiGluGradGetWorkspaceSize(
    const aclTensor* yGrad, const aclTensor* x, int64_t dim, const aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);

__attribute__((visibility("default"))) aclnnStatus aclnnSwiGluGrad(void* workspace,
                                                                   uint64_t workspaceSize,
                                                                   aclOpExecutor* executor,
                                                                   aclrtStream stream);
#ifdef __cplusplus
}
#endif
