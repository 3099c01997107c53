// aclnnLayerNormBackward(gradOut, input, normalizedShape, mean, rstd, weightOptional,
// biasOptional, outputMask, gradInputOut, gradWeightOut, gradBiasOut).
#pragma once

#include <span>
#include <vector>

#include "catalogue/operator_functions.h"

namespace aclnn_check::layer_norm_backward {

enum Slot : size_t {
  kGradOut,
  kInput,
  kMean,
  kRstd,
  kWeight,
  kBias,
  kGradInput,
  kGradWeight,
  kGradBias,
};
enum Param : size_t { kNormalizedShape, kOutputMask };

// The three outputs in outputMask order.
constexpr size_t kOutputs[3] = {kGradInput, kGradWeight, kGradBias};

// The problem as rows: R rows of M elements (M = product of normalizedShape).
struct RowShape {
  int64_t rows = 0;
  int64_t row_size = 0;
};
// R and M of a call whose normalizedShape is non-null with 1 <= k <= rank(input); nullopt else.
std::optional<RowShape> RowsOf(const OpArgs& args);
// outputMask[i], false where the mask is missing or too short.
bool MaskOn(const OpArgs& args, size_t output);

// xhat = (x - mean) * rstd of one row. Where |mean * rstd| < 1 (the mean within a standard
// deviation of 0) as one fused multiply-add x * rstd + (-mean * rstd), rounded once plus the
// shift's rounding (at most 2^-25): x - mean is not exact in float32 (a 16-bit x and a float32
// mean need more than 24 bits), so the plain form rounds twice. Elsewhere the plain form, whose
// subtraction is exact or nearly so when x is close to a large mean, while the shift's rounding
// would be many ulps of xhat. The fused form is PyTorch's; the choice is per row, so the SIMD loop
// keeps its operation count. README.md, "xhat".
struct RowCentering {
  float mean = 0, rstd = 0, shift = 0;
  bool fused = false;
  RowCentering(float row_mean, float row_rstd)
      : mean(row_mean),
        rstd(row_rstd),
        shift(-row_mean * row_rstd),
        fused(__builtin_fabsf(shift) < 1.0f) {}
  float operator()(float x) const {
    return fused ? __builtin_fmaf(x, rstd, shift) : (x - mean) * rstd;
  }
};

// A row whose statistics are far outside any data's scale (|rstd| outside [2^-64, 2^64], |mean|
// above 2^64, or either not finite): its float32 intermediates can overflow, reach the subnormals
// or cancel to far below the output's precision (what `aclnn-check hunt` found: rstd near 2^-125
// gave bfloat16 gradInput errors of 10^3 ulp, all of one sign), so the kernels redo it in float64
// (RescueRow). Data with a standard deviation above 2^64 or below 2^-64 has no other use for them.
inline bool ExtremeRow(float mean, float rstd) {
  const float scale = __builtin_fabsf(rstd);
  return !(scale >= 0x1p-64f && scale <= 0x1p64f) || !(__builtin_fabsf(mean) <= 0x1p64f);
}

// Rows of at most kExactRowSize elements, whose gradInput both cpu kernels form in float64
// (ExactRows). gradInput's row lies in the M - 2 dimensions orthogonal to 1 and xhat, so at M = 2
// every element, and at M = 3 or 4 some elements of rows with tied inputs (frequent in 16-bit
// data), are exactly 0 but for eps and the statistics' rounding: 1e-5 to 1e-10 of the terms that
// cancel, below float32's rounding of them. Float32 gave those elements tens to thousands of ulps,
// each of its own sign: enough for a 4096 x 3 bfloat16 draw to fail the rounding-bias rule
// (README.md, "Short rows"). Such rows are mostly vector padding, so float64 costs them little.
constexpr int64_t kExactRowSize = 4;
inline bool ExactRowSize(int64_t row_size) { return row_size <= kExactRowSize; }

ACLNN_OPERATOR_FUNCTIONS();
// SimdWorkspaceBytes covers SimdCompute and the Compute it falls back to on other views.

// The float64 path of both cpu kernels (kernel.cc) for results that float32 cannot form: an
// intermediate (gradOut * weight, a row or column sum, gw - mean(gw)) can overflow where the
// result is finite, and an infinite column term met by an overflowed one of the other sign gives
// NaN where float64 gives the term's infinity. A float32 result that is not finite is recomputed
// in float64 with the reference's formula (README.md) and rounded once: RescueRow for gradInput's
// row `row` (written after the kernel's), RescueColumns for the selected gradWeight and gradBias
// elements of `columns`, those whose float32 sum was not finite (written after the kernel's).
// Rare; where an input is inf or NaN the float64 result is the reference's, IEEE for IEEE.
void RescueRow(const OpArgs& args, int64_t row);
// RescueRow for the rows [first, last), read and written in one go (ExactRowSize rows).
void ExactRows(const OpArgs& args, int64_t first, int64_t last);
void RescueColumns(const OpArgs& args, std::span<const int64_t> columns);
// The columns [0, m) where dw or db (either may be null) is not finite.
std::vector<int64_t> NonFiniteColumns(const float* dw, const float* db, int64_t m);
// mean and rstd from input as the forward layer norm computes them (eps 1e-5, biased variance),
// rounded once to their dtypes.
void DeriveInputs(const OpArgs& args);

}  // namespace aclnn_check::layer_norm_backward
