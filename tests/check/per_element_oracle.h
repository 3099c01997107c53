// The checker as it was before the block-wise data path (one element at a time through
// CheckElement and Expectation::Accepts): the oracle the data path tests compare CheckOutput with.
#pragma once

#include "check/output_check.h"

namespace aclnn_check {

OutputCheck PerElementCheckOutput(const Operator& op, const ReferenceOutput& reference,
                                  std::span<const double> device, DType out,
                                  const Tolerance& tolerance,
                                  const ExpectationLookup& expectation_of = DocumentedExpectation);

}  // namespace aclnn_check
