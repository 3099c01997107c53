// For the provider tests (tests/kernels/<op>/cann_usage_test.cc): whether an output is a value the test
// computed itself in float64 from kernels/<op>/README.md's formula, rounded once to the output
// dtype. The ref provider must pass it for every element: it is the float64 reference rounded once,
// so this checks the reference against the formula rather than against itself.
#pragma once

#include <gtest/gtest.h>

#include <cmath>

#include "core/dtype.h"

namespace aclnn_check::testing {

// `exact` is the test's float64 value and `exact_error` a bound on its own error (float64 roundings
// in the test's formula and in the reference's, which may associate differently): `got` must be
// RoundTo(exact), or within half an ulp of the dtype plus that bound of it. NaN must give NaN.
inline ::testing::AssertionResult IsRoundedFormulaValue(double got, double exact,
                                                        double exact_error, DType dtype) {
  if (std::isnan(exact)) {
    if (std::isnan(got)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << got << " where the formula gives NaN";
  }
  if (got == RoundTo(exact, dtype)) return ::testing::AssertionSuccess();
  if (std::isfinite(got) && std::isfinite(exact) &&
      std::fabs(got - exact) <= 0.5 * Ulp(exact, dtype) + exact_error) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << got << " is not the formula's " << exact << " (within " << exact_error
         << ") rounded to " << DTypeName(dtype) << ", " << RoundTo(exact, dtype);
}

}  // namespace aclnn_check::testing
