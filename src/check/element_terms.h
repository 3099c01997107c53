// The checker's per-element arithmetic for the common case, a vector of elements at a time: the
// reference rounded to the output dtype, the error in ulps, the relative error, the rounding-bias
// terms, and whether the element is finite and within the element bound. Each value is what
// CheckBlock's scalar code computes for that element, bit for bit (the same IEEE operations, and
// FloatBits' rounding and spacing done on the lanes' bits); CheckBlock then sums them in element
// order, so no metric changes. (Those terms were most of the check: computed one element at a
// time, the check was a quarter of a run of CANN's LogitGrad list.)
#pragma once

#include <cstddef>

#include "core/dtype.h"

namespace aclnn_check {

// Where ComputeElementTerms writes, each count elements long.
struct ElementTerms {
  double* rounded;       // reference rounded to the output dtype
  double* ulp_error;     // |device - reference| / ulp(reference)
  double* relative;      // |device - reference| / |reference| (unused where the reference is 0)
  double* bias;          // (device - reference) * sign(reference) / ulp (16-bit outputs)
  double* rounded_bias;  // (rounded - reference) * sign(reference) / ulp (16-bit outputs)
  double* common;        // 1 where the rounded reference and the device value are finite and
                         // the error is within the bound, else 0: the other elements need the
                         // general path
};

// Terms of elements [0, n) for a float32, float16 or bfloat16 output, where n is count rounded
// down to whole vectors; returns n (0 for another dtype: nothing written). The element bound is
// ulp_tolerance * ulp + mag_tolerance * mag.
size_t ComputeElementTerms(DType out, const double* device, const double* reference,
                           const double* mag, size_t count, double ulp_tolerance,
                           double mag_tolerance, const ElementTerms& terms);

}  // namespace aclnn_check
