// aclnnHardswishBackward(gradOutput, self, out).
#pragma once

#include "catalogue/operator_functions.h"

namespace aclnn_check::hardswish_backward {

enum Slot : size_t { kGradOutput, kSelf, kOut };

ACLNN_OPERATOR_FUNCTIONS();

}  // namespace aclnn_check::hardswish_backward
