// aclnnSwiGluGrad(yGrad, x, dim, out).
#pragma once

#include <cfloat>
#include <cmath>

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

// dA = (factor * B) * yGrad and dB = (A / d) * yGrad, one rounding each, except where that first
// product or quotient leaves float32's normal range while the result need not: factor * B
// overflows for B near the largest float32 and a small yGrad, and it or A / d underflows (losing
// bits, or to 0) for a tiny B or A and a large yGrad. There B * yGrad and A * yGrad, exact in
// double, come first and the result rounds once more (README.md, "Intermediate range").
inline bool InNormalRange(float v) { return std::fabs(v) >= FLT_MIN && std::fabs(v) <= FLT_MAX; }
inline float WideDA(float factor, float b, float g) {
  return static_cast<float>(static_cast<double>(factor) *
                            (static_cast<double>(b) * static_cast<double>(g)));
}
inline float WideDB(float a, float g, float d) {
  return static_cast<float>(static_cast<double>(a) * static_cast<double>(g) /
                            static_cast<double>(d));
}

// kernel.cc's float32 element (its comment has the form): dA, dB, and whether each took the wide
// form above.
struct ElementResult {
  float da, db;
  bool wide_da, wide_db;
};
inline ElementResult PortableElement(float a, float b, float g) {
  const float e = std::exp(-a);
  const float d = 1.0f + e;
  const float s = 1.0f / d;
  const float u = a > 0.0f && a <= kLargestAWithExpComplement ? e * s : 1.0f - s;
  const float factor = s * std::fma(a, u, 1.0f);
  const float factor_b = factor * b;
  const float silu = a / d;
  const bool wide_da = !InNormalRange(factor_b);
  const bool wide_db = !InNormalRange(silu);
  return {wide_da ? WideDA(factor, b, g) : factor_b * g, wide_db ? WideDB(a, g, d) : silu * g,
          wide_da, wide_db};
}

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
