// The values a hunt tries at and beside boundaries (docs/hunt.md): the dtype's (largest finite,
// smallest normal and subnormal, the neighbours of 1) and the operator's, derived from its
// description rather than listed per operator: the numbers in its rules' conditions, its default
// input ranges, the point's eps, and the branch points of the usual kernel formulas (exp's
// overflow and underflow arguments, the saturation of sigmoid and tanh) in the compute dtypes.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "catalogue/operator.h"
#include "core/dtype.h"

namespace aclnn_check {

struct Boundaries {
  std::vector<double> of_dtype;     // each in the input dtype, both signs
  std::vector<double> of_operator;  // exact (not yet rounded): a move rounds what it places
};

Boundaries BoundariesOf(const Operator& op, DType dtype, std::optional<double> eps);

// The numbers a rule condition names: decimals ("-87.3365", "1e-3") and powers of two ("2^-126").
std::vector<double> NumbersInText(std::string_view text);

}  // namespace aclnn_check
