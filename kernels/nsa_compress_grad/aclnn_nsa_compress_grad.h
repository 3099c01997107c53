// aclnnNsaCompressGrad: generated header in CANN (ops-transformer, aclnnop/aclnn_nsa_compress_grad.h).
// The doubled "OptionalOptional" parameter names are CANN's own.
#pragma once

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) aclnnStatus aclnnNsaCompressGradGetWorkspaceSize(
    const aclTensor* outputGrad, const aclTensor* input, const aclTensor* weight,
    const aclIntArray* actSeqLenOptionalOptional, int64_t compressBlockSize,
    int64_t compressStride, int64_t actSeqLenType, char* layoutOptionalOptional,
    const aclTensor* inputGradOut, const aclTensor* weightGradOut, uint64_t* workspaceSize,
    aclOpExecutor** executor);

__attribute__((visibility("default"))) aclnnStatus aclnnNsaCompressGrad(void* workspace,
                                                                       uint64_t workspaceSize,
                                                                       aclOpExecutor* executor,
                                                                       aclrtStream stream);
#ifdef __cplusplus
}
#endif
