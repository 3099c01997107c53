// The checker's per-element arithmetic for the common case, a vector of elements at a time. For
// each element: the terms CheckBlock sums (the error in ulps, the squared and signed error, the
// reference's magnitude, the relative error, the rounding-bias terms), and whether it is a common
// element: finite, within the element bound, and without a rule other than the bound. Over a
// chunk: what does not depend on order (counts, maxima, the ulp histogram, the worst element).
// Each term is what CheckBlock's scalar code computes for that element, bit for bit (the same IEEE
// operations, and FloatBits' rounding, spacing and ordering done on the lanes' bits); CheckBlock
// adds the terms in element order, so no sum changes. (Done one element at a time, the check was
// a quarter of a run of CANN's LogitGrad list; with the terms alone on the lanes, its counts,
// maxima and histogram left the loop latency-bound at about 36 cycles an element.)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/dtype.h"

namespace aclnn_check {

// What an element's rule means for the common case.
enum ElementRule : int64_t {
  kWithoutRule = 0,     // the element bound, and the rounding-bias terms
  kUnderBoundRule = 1,  // a rule that expects "ref": the element bound, no rounding-bias terms
  kUnderOtherRule = 2,  // never a common element
};

// Where ComputeElementTerms writes, each count elements long. Every term is +0 where the element
// is not common, so that adding it changes no sum.
struct ElementTerms {
  double* ulp_error;      // |device - reference| / ulp(reference)
  double* squared;        // (device - reference)^2
  double* error;          // device - reference
  double* abs_reference;  // |reference|
  double* relative;       // |device - reference| / |reference|; +0 where the reference is 0
  double* bias;           // (device - reference) * sign(reference) / ulp, where the reference is
                          // not 0 and the element has no rule; 16-bit outputs only (not written
                          // for float32)
  double* rounded_bias;   // (rounded - reference) * sign(reference) / ulp, as bias
  double* common;         // 1 for a common element, else 0: the others need the general path
};

// The common elements' order-free totals over the computed part of a chunk.
struct CommonTotals {
  int64_t elements = 0;
  int64_t nonzero_reference = 0;           // the relative error's elements
  int64_t within_1e3 = 0;                  // relative error <= 1e-3, or reference and device both 0
  int64_t bias_elements = 0;               // elements with rounding-bias terms (16-bit outputs)
  std::array<int64_t, 7> ulp_histogram{};  // by UlpBucket of the steps to the rounded reference
  double max_ulp = 0;
  double max_relative = 0;
  // The worst common element, as Running::Rank orders them (an infinite ulp error ranks as 0):
  // the largest rank, the first such element; -1 for none.
  int64_t worst = -1;
  double worst_ulp = 0;
};

// Terms of elements [0, n) for a float32, float16 or bfloat16 output, where n is count rounded
// down to whole vectors; returns n (0 for another dtype: nothing written). rule_kinds holds each
// element's ElementRule, or is null when no element has a rule. The element bound is
// ulp_tolerance * ulp + mag_tolerance * mag.
size_t ComputeElementTerms(DType out, const double* device, const double* reference,
                           const double* mag, const int64_t* rule_kinds, size_t count,
                           double ulp_tolerance, double mag_tolerance, const ElementTerms& terms,
                           CommonTotals* totals);

}  // namespace aclnn_check
