// The eps table of kernels/logit_grad/README.md (kernel.cc's order) reduced to what a float32 SIMD
// kernel needs: one of three modes and, for the range mode, float32 bounds equivalent to
// kernel.cc's comparisons of a float32 x with eps and 1 - eps in double.
#pragma once

#include <cmath>
#include <limits>

namespace aclnn_check::logit_grad {

enum class TableMode {
  kFill,      // every element is `fill` (logit.eps_nan, eps_gt1: NaN; eps_inf: 0)
  kSignOfDy,  // dy * inf (logit.eps_eq1)
  kRange,     // NaN for non-finite x, the formula for lo <= x <= hi, else `fill`
};

struct FloatTable {
  TableMode mode = TableMode::kRange;
  float lo = 0;  // the smallest float32 >= the double lower bound
  float hi = 0;  // the largest float32 <= the double upper bound
  float fill = 0;
};

inline FloatTable FloatTableOf(double eps) {
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (std::isnan(eps) || (eps > 1 && eps != kInf)) return {TableMode::kFill, 0, 0, kNaN};
  if (eps > 1) return {TableMode::kFill, 0, 0, 0.0f};
  if (eps == 1) return {TableMode::kSignOfDy, 0, 0, 0.0f};
  const bool negative = eps < 0;
  const double lo = negative ? 0.0 : eps;
  const double hi = negative ? 1.0 : 1.0 - eps;
  float lo_float = static_cast<float>(lo);
  if (static_cast<double>(lo_float) < lo) lo_float = std::nextafter(lo_float, HUGE_VALF);
  float hi_float = static_cast<float>(hi);
  if (static_cast<double>(hi_float) > hi) hi_float = std::nextafter(hi_float, -HUGE_VALF);
  return {TableMode::kRange, lo_float, hi_float, negative ? kNaN : 0.0f};
}

}  // namespace aclnn_check::logit_grad
