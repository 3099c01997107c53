// aclnnLayerNormBackward(gradOut, input, normalizedShape, mean, rstd, weightOptional,
// biasOptional, outputMask, gradInputOut, gradWeightOut, gradBiasOut).
#pragma once

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

ACLNN_OPERATOR_FUNCTIONS();
// SimdWorkspaceBytes covers SimdCompute and the Compute it falls back to on other views.
// mean and rstd from input as the forward layer norm computes them (eps 1e-5, biased variance),
// rounded once to their dtypes.
void DeriveInputs(const OpArgs& args);

}  // namespace aclnn_check::layer_norm_backward
