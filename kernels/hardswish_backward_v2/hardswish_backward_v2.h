// aclnnHardswishBackwardV2(gradOutput, self, out): the gradient of hardswish on the open interval.
#pragma once

#include "catalogue/operator_functions.h"

namespace aclnn_check::hardswish_backward_v2 {

enum Slot : size_t { kGradOutput, kSelf, kOut };

ACLNN_OPERATOR_FUNCTIONS();

}  // namespace aclnn_check::hardswish_backward_v2
