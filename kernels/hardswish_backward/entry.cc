// The aclnn C entry points of HardswishBackward in the bundled providers.
#include "aclnnop/aclnn_hardswish_backward.h"
#include "providers/common/dispatch.h"

using aclnn_check::FindOperator;
using aclnn_check::Operator;

extern "C" aclnnStatus aclnnHardswishBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                              const aclTensor* self,
                                                              aclTensor* out,
                                                              uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
  static const Operator& op = *FindOperator("HardswishBackward");
  return aclnn_check::provider::Prepare(op, {gradOutput, self, out}, {}, workspaceSize, executor);
}

extern "C" aclnnStatus aclnnHardswishBackward(void* workspace, uint64_t workspaceSize,
                                              aclOpExecutor* executor, const aclrtStream stream) {
  return aclnn_check::provider::Launch(workspace, workspaceSize, executor, stream);
}
