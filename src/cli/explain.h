// `aclnn-check explain OP`: an operator's axes, dtype matrix per product, rules and tolerances.
#pragma once

#include <ostream>

#include "catalogue/operator.h"

namespace aclnn_check {

void Explain(const Operator& op, std::ostream& out);

}  // namespace aclnn_check
