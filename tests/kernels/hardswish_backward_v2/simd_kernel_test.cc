// The SIMD kernel (simd_kernel.cc) on every Highway target this machine runs (one test each),
// against the portable kernel (kernel.cc) bit for bit on the views it takes (contiguous, offset or
// not): special values, the boundaries -3 and 3 and their neighbours, results that underflow or
// overflow the 16-bit dtypes, odd sizes. Non-contiguous views go to kernel.cc (kernel_test.cc);
// that the cpu provider's entry sends them there is checked against the reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "hardswish_backward_v2/hardswish_backward_v2.h"
#include "support/call_builder.h"
#include "support/kernel_agreement.h"
#include "support/operator_named.h"
#include "support/simd_targets.h"

// Highway's target-parametrised fixture (support/simd_targets.h), declared outside our namespaces,
// where hwy_gtest.h's unqualified `testing::` names GoogleTest's.
HWY_BEFORE_TEST(HardswishBackwardV2Simd);

namespace aclnn_check::hardswish_backward_v2 {
namespace {

using testing::CallBuilder;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using testing::FolderOperator;

CallBuilder MakeCall(DType dtype, const Dims& shape, const std::vector<double>& grad,
                     const std::vector<double>& self, const Layout& layout) {
  CallBuilder call(FolderOperator());
  call.Tensor("gradOutput", dtype, shape, grad, layout)
      .Tensor("self", dtype, shape, self, layout)
      .Zeros("out", dtype, shape, layout);
  return call;
}

TEST_P(HardswishBackwardV2Simd, MatchesPortableKernelBitForBit) {
  const int64_t target = GetParam();
  struct Size {
    int64_t n;
    const char* layout;
  };
  const Size sizes[] = {{1, "contiguous"},
                        {17, "contiguous"},
                        {17, "offset:1"},
                        {1000003, "contiguous"},
                        {1000003, "offset:1"}};
  for (const Size& size : sizes) {
    const size_t n = static_cast<size_t>(size.n);
    const double up3 = std::nextafter(3.0f, 4.0f), below_minus3 = std::nextafter(-3.0f, -4.0f);
    const std::vector<double> self = testing::WideValues(
        n, 5, -2, 2, {-3, 3, up3, below_minus3, kNaN, kInf, -kInf, 0, -0.0, -1.5}, 5);
    const std::vector<double> grad =
        testing::WideValues(n, 6, -30, 18, {kInf, -kInf, kNaN, 0, -0.0, 1, 65520}, 3);
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      const Layout layout = *Layout::Parse(size.layout);
      CallBuilder portable = MakeCall(dtype, {size.n}, grad, self, layout);
      CallBuilder simd = MakeCall(dtype, {size.n}, grad, self, layout);
      ASSERT_TRUE(testing::TakesTheSimdPath(simd.Args())) << size.layout;
      Compute(portable.Args(), nullptr);
      SimdCompute(simd.Args(), nullptr);
      const std::string context = std::string(hwy::TargetName(target)) + " " +
                                  std::string(DTypeName(dtype)) + " n=" + std::to_string(size.n) +
                                  " " + size.layout;
      EXPECT_EQ(testing::CountDifferentElements(portable.tensor("out").view(),
                                                simd.tensor("out").view(), context),
                0)
          << context;
    }
  }
}

// x / 3 is computed without a divide on targets with FMA (DivideByThree). Its rounding depends on
// x's significand alone between the subnormals and overflow, and on the sign not at all, so every
// 5th significand of the binade [1, 2) and of the subnormals goes through it here (every float32
// was checked once, outside the tests: simd_kernel.cc).
TEST_P(HardswishBackwardV2Simd, SignificandsAcrossABinadeMatchPortableKernel) {
  std::vector<double> self;
  for (uint32_t significand = 0; significand < (1u << 23); significand += 5) {
    for (const uint32_t exponent : {0u, 127u << 23}) {  // subnormals, [1, 2)
      float value = 0;
      const uint32_t bits = exponent | significand;
      std::memcpy(&value, &bits, sizeof(value));
      self.push_back(value);
    }
  }
  const std::vector<double> grad = testing::WideValues(self.size(), 7, -4, 4, {});
  const int64_t n = static_cast<int64_t>(self.size());
  CallBuilder portable = MakeCall(DType::kFloat32, {n}, grad, self, *Layout::Parse("contiguous"));
  Compute(portable.Args(), nullptr);
  CallBuilder simd = MakeCall(DType::kFloat32, {n}, grad, self, *Layout::Parse("contiguous"));
  SimdCompute(simd.Args(), nullptr);
  EXPECT_EQ(testing::CountDifferentElements(portable.tensor("out").view(),
                                            simd.tensor("out").view(), "float32"),
            0);
}

// The cpu provider's kernel on views the SIMD path does not take: it must hand them to kernel.cc
// rather than run over them as if contiguous. Held to the reference, not to kernel.cc. Not one test
// per target: nothing is dispatched.
TEST(HardswishBackwardV2SimdDispatch, NonContiguousViewsAgreeWithReference) {
  const size_t n = 17 * 241;
  const std::vector<double> self = testing::WideValues(n, 8, -2, 2, {-3, 3, kNaN, -1.5}, 5);
  const std::vector<double> grad = testing::WideValues(n, 9, -4, 4, {kInf, 0, 1}, 3);
  for (const char* layout : {"strided:2", "transposed"}) {
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      CallBuilder call = MakeCall(dtype, {17, 241}, grad, self, *Layout::Parse(layout));
      ASSERT_FALSE(testing::TakesTheSimdPath(call.Args())) << layout;
      const auto agreement =
          testing::RunKernelAgainstReference(FolderOperator(), call, SimdCompute);
      EXPECT_TRUE(agreement.passed())
          << layout << " " << DTypeName(dtype) << ": " << agreement.Describe();
    }
  }
}

}  // namespace
}  // namespace aclnn_check::hardswish_backward_v2
