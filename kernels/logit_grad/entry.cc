// The aclnn C entry points of LogitGrad in the bundled providers.
#include "aclnnop/aclnn_logit_grad.h"
#include "providers/common/dispatch.h"

using aclnn_check::FindOperator;
using aclnn_check::Operator;
using aclnn_check::ParamValue;

extern "C" aclnnStatus aclnnLogitGradGetWorkspaceSize(const aclTensor* x, const aclTensor* dy,
                                                      double eps, const aclTensor* out,
                                                      uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  static const Operator& op = *FindOperator("LogitGrad");
  return aclnn_check::provider::Prepare(op, {x, dy, out}, {ParamValue(eps)}, workspaceSize,
                                        executor);
}

extern "C" aclnnStatus aclnnLogitGrad(void* workspace, uint64_t workspaceSize,
                                      aclOpExecutor* executor, aclrtStream stream) {
  return aclnn_check::provider::Launch(workspace, workspaceSize, executor, stream);
}
