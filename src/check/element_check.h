// The per-element pass criterion of docs/contract/numerics.md, in one place:
//   |dev - ref| <= ulp_tol * ulp(ref, out dtype) + c * u * mag
// with special values classified on ref rounded to the output dtype, the overflow that the bound
// leaves undecided, and the underflow allowance.
#pragma once

#include "core/dtype.h"

namespace aclnn_check {

struct Tolerance {
  double ulp = 1;                      // ulp_tol
  double c = 1;                        // operation-count constant of the output
  DType compute = DType::kFloat32;     // u = UnitRoundoff(compute)
};

struct ElementVerdict {
  bool pass = false;
  bool by_underflow = false;        // accepted only by rule numerics.underflow
  bool overflow_undecided = false;  // judged by rule numerics.overflow_bound (pass or not)
  double ulp_error = 0;  // |dev - ref| / ulp(ref); 0 for matching specials, inf otherwise
};

// device is the decoded device value; ref and mag come from the float64 reference.
ElementVerdict CheckElement(double device, double ref, double mag, DType out,
                            const Tolerance& tolerance);

// The allowed absolute error for a finite element (without the underflow allowance).
double ErrorBound(double ref, double mag, DType out, const Tolerance& tolerance);

// docs/contract/numerics.md's exception to "a result that overflows the dtype must be inf": ref is
// finite but rounds to inf in the output dtype, and the bound reaches back to the largest finite
// value (|ref| - bound <= max finite), as when a sum of huge terms cancels. The data do not decide
// whether a correct kernel overflows there.
bool OverflowUndecided(double ref, double mag, DType out, const Tolerance& tolerance);

}  // namespace aclnn_check
