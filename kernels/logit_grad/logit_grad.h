// aclnnLogitGrad(x, dy, eps, out).
#pragma once

#include "catalogue/operator_functions.h"

namespace aclnn_check::logit_grad {

enum Slot : size_t { kX, kDy, kOut };
enum Param : size_t { kEps };

// The eps parameter of a call; a call built without it (tests) uses the CANN document's suggested
// -1, which is also PyTorch's value for eps = None.
inline double EpsOf(const OpArgs& args) {
  const double* eps = kEps < args.params.size() ? args.param<double>(kEps) : nullptr;
  return eps ? *eps : -1.0;
}

ACLNN_OPERATOR_FUNCTIONS();

}  // namespace aclnn_check::logit_grad
