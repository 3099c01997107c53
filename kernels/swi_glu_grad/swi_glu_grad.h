// aclnnSwiGluGrad(yGrad, x, dim, out).
#pragma once

#include "catalogue/operator_functions.h"

namespace aclnn_check::swi_glu_grad {

enum Slot : size_t { kYGrad, kX, kOut };
enum Param : size_t { kDim };

// dim when the call carries none (tests that build OpArgs without it): the op definition's -1.
constexpr int64_t kDefaultDim = -1;

// The kernels take dA's 1 - s as exp(-A) * s for A in (0, this]. Above it float32's s is 1, 1 - s
// is exactly 0 and A * exp(-A) is below half an ulp of 1, so the factor is 1 either way; the SIMD
// kernel clamps exp's argument there.
constexpr float kLargestAWithExpComplement = 20.0f;

// x viewed as [outer, 2 * half, inner] around the split dimension: A is [:, :half, :], B is
// [:, half:, :], yGrad is [outer, half, inner]; every index is logical (row-major).
struct Split {
  int64_t outer = 0;
  int64_t half = 0;
  int64_t inner = 0;
};
// The split of a validated call (dim normalized, x.shape[dim] even).
Split SplitOf(const OpArgs& args);
int64_t DimParam(const OpArgs& args);

ACLNN_OPERATOR_FUNCTIONS();

}  // namespace aclnn_check::swi_glu_grad
