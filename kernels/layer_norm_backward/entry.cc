// The aclnn C entry points of LayerNormBackward in the bundled providers.
#include "aclnnop/aclnn_layer_norm_backward.h"
#include "providers/common/dispatch.h"

using aclnn_check::FindOperator;
using aclnn_check::Operator;

extern "C" aclnnStatus aclnnLayerNormBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclIntArray* normalizedShape,
    const aclTensor* mean, const aclTensor* rstd, const aclTensor* weightOptional,
    const aclTensor* biasOptional, const aclBoolArray* outputMask, aclTensor* gradInputOut,
    aclTensor* gradWeightOut, aclTensor* gradBiasOut, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
  static const Operator& op = *FindOperator("LayerNormBackward");
  return aclnn_check::provider::Prepare(op,
                                        {gradOut, input, mean, rstd, weightOptional, biasOptional,
                                         gradInputOut, gradWeightOut, gradBiasOut},
                                        {aclnn_check::provider::FromIntArray(normalizedShape),
                                         aclnn_check::provider::FromBoolArray(outputMask)},
                                        workspaceSize, executor);
}

extern "C" aclnnStatus aclnnLayerNormBackward(void* workspace, uint64_t workspaceSize,
                                              aclOpExecutor* executor, const aclrtStream stream) {
  return aclnn_check::provider::Launch(workspace, workspaceSize, executor, stream);
}
