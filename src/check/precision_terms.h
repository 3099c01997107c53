// The precision standards' per-element arithmetic (docs/contract/numerics.md), a vector of elements
// at a time: the relative errors and squared differences MeasureAgainstGolden and
// JudgeSingleBenchmark sum, and what does not depend on order (counts and maxima). Each term is
// what their scalar code computes for that element, bit for bit (the same IEEE operations); they
// add the terms in element order, so no metric changes. (One element at a time, the two passes were
// a tenth of a large point's run and a sixth of CANN's LogitGrad list.)
#pragma once

#include <cstddef>
#include <cstdint>

namespace aclnn_check {

// An element the inf/NaN rules decide: the device value, or the golden value in the output
// dtype's range (|golden| >= overflow is an infinity there), is not finite.

// MeasureAgainstGolden's terms, each count elements long; +0 where the element is not in the
// normal range, so that adding it changes no sum.
struct GoldenTerms {
  double* relative;  // |actual - golden| / (|golden| + 1e-7)
  double* squared;   // (actual - golden)^2
  double* special;   // 1 for an element the inf/NaN rules decide, else 0
};
struct GoldenTotals {
  int64_t normal = 0;       // |golden| >= the small-value threshold
  int64_t small = 0;        // below it
  int64_t error_count = 0;  // small elements with |actual - golden| > the small-value error
  double mare = 0;          // the largest relative error of a normal element
};
// Terms of elements [0, n), where n is count rounded down to whole vectors; returns n.
size_t ComputeGoldenTerms(const double* actual, const double* golden, size_t count, double overflow,
                          double small, double small_error, const GoldenTerms& terms,
                          GoldenTotals* totals);

// JudgeSingleBenchmark's terms: over every element whose golden is finite in the dtype's range,
// the relative error, counted as inf where it is NaN (a non-finite device value).
struct SingleTerms {
  double* counted;  // the relative error; +0 where the golden is not finite in the range
  double* special;  // 1 where the golden is not finite in the range, else 0
};
struct SingleTotals {
  int64_t finite = 0;
  double mare = 0;
};
size_t ComputeSingleTerms(const double* actual, const double* golden, size_t count, double overflow,
                          const SingleTerms& terms, SingleTotals* totals);

}  // namespace aclnn_check
