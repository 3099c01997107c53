// The aclnn C entry points of NsaCompressGrad in the bundled providers.
#include "aclnnop/aclnn_nsa_compress_grad.h"
#include "providers/common/dispatch.h"

using aclnn_check::FindOperator;
using aclnn_check::Operator;

extern "C" aclnnStatus aclnnNsaCompressGradGetWorkspaceSize(
    const aclTensor* outputGrad, const aclTensor* input, const aclTensor* weight,
    const aclIntArray* actSeqLenOptionalOptional, int64_t compressBlockSize, int64_t compressStride,
    int64_t actSeqLenType, char* layoutOptionalOptional, const aclTensor* inputGradOut,
    const aclTensor* weightGradOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
  static const Operator& op = *FindOperator("NsaCompressGrad");
  return aclnn_check::provider::Prepare(
      op, {outputGrad, input, weight, inputGradOut, weightGradOut},
      {aclnn_check::provider::FromIntArray(actSeqLenOptionalOptional), compressBlockSize,
       compressStride, actSeqLenType, aclnn_check::provider::FromString(layoutOptionalOptional)},
      workspaceSize, executor);
}

extern "C" aclnnStatus aclnnNsaCompressGrad(void* workspace, uint64_t workspaceSize,
                                            aclOpExecutor* executor, aclrtStream stream) {
  return aclnn_check::provider::Launch(workspace, workspaceSize, executor, stream);
}
