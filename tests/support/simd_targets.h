// Helpers for the SIMD kernel tests. Each is a Highway target-parametrised test
// (hwy/tests/hwy_gtest.h): `HWY_BEFORE_TEST(Suite);` then `TEST_P(Suite, Name)` gives one test per
// target this machine runs and this build compiled, named SuiteGroup/Suite.Name/<target> (so a
// failure names its target and --gtest_filter='*AVX2' runs one); the fixture forces the test's
// target (GetParam()) for every HWY_DYNAMIC_DISPATCH and lifts it afterwards. Also: whether a call
// takes the SIMD path, and an element-by-element comparison of two outputs.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "catalogue/operator.h"
#include "core/thread_pool.h"
#include "core/tensor_view.h"
#include "hwy/targets.h"
#include "hwy/tests/hwy_gtest.h"

namespace aclnn_check::testing {

// The SIMD kernels take contiguous views only and hand the others to kernel.cc, so a row meant to
// test a SIMD kernel must have every view contiguous, or it would compare kernel.cc with itself.
inline ::testing::AssertionResult TakesTheSimdPath(const OpArgs& args) {
  for (size_t slot = 0; slot < args.tensors.size(); ++slot) {
    if (args.tensor(slot) && !args.tensor(slot)->is_contiguous()) {
      return ::testing::AssertionFailure()
             << "tensor " << slot << " is not contiguous: the SIMD kernel would not run";
    }
  }
  return ::testing::AssertionSuccess();
}

// Sets the cpu provider's thread count while alive, then restores the environment's.
class ForcedThreadCount {
 public:
  explicit ForcedThreadCount(size_t threads) { SetCpuThreadCount(threads); }
  ~ForcedThreadCount() { SetCpuThreadCount(CpuThreadCountFromEnvironment()); }
  ForcedThreadCount(const ForcedThreadCount&) = delete;
  ForcedThreadCount& operator=(const ForcedThreadCount&) = delete;
};

// The bits of element `storage` of a view (2 or 4 bytes).
inline uint32_t ElementBits(const TensorView& view, int64_t storage) {
  uint32_t bits = 0;
  std::memcpy(&bits, view.element_address(storage), DTypeSize(view.dtype));
  return bits;
}

// Number of logical elements whose encodings differ between a and b (same dtype and shape; any
// two NaNs count as equal: payloads are not part of any rule). Reports the first few mismatches.
inline int64_t CountDifferentElements(const TensorView& a, const TensorView& b,
                                      const std::string& context) {
  const std::vector<int64_t> sa = StorageIndices(a);
  const std::vector<int64_t> sb = StorageIndices(b);
  int64_t different = 0;
  for (size_t i = 0; i < sa.size(); ++i) {
    const double va = DecodeElement(a.element_address(sa[i]), a.dtype);
    const double vb = DecodeElement(b.element_address(sb[i]), b.dtype);
    if (std::isnan(va) && std::isnan(vb)) continue;
    if (ElementBits(a, sa[i]) == ElementBits(b, sb[i])) continue;
    if (++different <= 5) {
      ADD_FAILURE() << context << ": element " << i << " is " << va << " and " << vb;
    }
  }
  return different;
}

}  // namespace aclnn_check::testing

#include <random>

namespace aclnn_check::testing {

// n values: normal samples scaled by 2^k, k uniform in [low_exponent, high_exponent], so that
// 16-bit results reach the subnormals and overflow; then `specials` written over every
// `every`-th element, in turn.
inline std::vector<double> WideValues(size_t n, uint64_t seed, int low_exponent, int high_exponent,
                                      const std::vector<double>& specials, size_t every = 7) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_int_distribution<int> exponent(low_exponent, high_exponent);
  std::vector<double> values(n);
  for (double& v : values) v = std::ldexp(normal(random), exponent(random));
  for (size_t i = 0, s = 0; !specials.empty() && i < n; i += every, ++s) {
    values[i] = specials[s % specials.size()];
  }
  return values;
}

}  // namespace aclnn_check::testing
