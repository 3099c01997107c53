// The aclnn C entry points of SwiGluGrad in the bundled providers.
#include "aclnnop/aclnn_swi_glu_grad.h"
#include "providers/common/dispatch.h"

using aclnn_check::FindOperator;
using aclnn_check::Operator;

extern "C" aclnnStatus aclnnSwiGluGradGetWorkspaceSize(const aclTensor* yGrad, const aclTensor* x,
                                                       int64_t dim, const aclTensor* out,
                                                       uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
  static const Operator& op = *FindOperator("SwiGluGrad");
  return aclnn_check::provider::Prepare(op, {yGrad, x, out}, {aclnn_check::ParamValue{dim}},
                                        workspaceSize, executor);
}

extern "C" aclnnStatus aclnnSwiGluGrad(void* workspace, uint64_t workspaceSize,
                                       aclOpExecutor* executor, aclrtStream stream) {
  return aclnn_check::provider::Launch(workspace, workspaceSize, executor, stream);
}
