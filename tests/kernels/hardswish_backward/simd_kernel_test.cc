// Both versions' SIMD kernel (simd_kernel.cc) on every Highway target this machine runs (one test
// each), against the portable kernel (kernel.cc) bit for bit on the views it takes (contiguous,
// offset or not): special values, the boundaries -3 and 3 and their neighbours, results that
// underflow or overflow the 16-bit dtypes, odd sizes. Non-contiguous views go to kernel.cc
// (kernel_test.cc); that the cpu provider's entry sends them there is checked against the
// reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kernels/hardswish_backward/hardswish_versions.h"
#include "support/call_builder.h"
#include "support/kernel_agreement.h"
#include "support/simd_targets.h"

// Highway's target-parametrised fixture (support/simd_targets.h), declared outside our namespaces,
// where hwy_gtest.h's unqualified `testing::` names GoogleTest's.
HWY_BEFORE_TEST(HardswishBackwardSimd);

namespace aclnn_check::hardswish_versions {
namespace {

using testing::CallBuilder;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using testing::OperatorNamed;

CallBuilder MakeCall(const HardswishVersion& version, DType dtype, const Dims& shape,
                     const std::vector<double>& grad, const std::vector<double>& self,
                     const Layout& layout) {
  CallBuilder call(OperatorNamed(version.name));
  call.Tensor("gradOutput", dtype, shape, grad, layout)
      .Tensor("self", dtype, shape, self, layout)
      .Zeros("out", dtype, shape, layout);
  return call;
}

TEST_P(HardswishBackwardSimd, MatchesPortableKernelBitForBit) {
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
    for (const HardswishVersion& version : kHardswishVersions) {
      for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
        const Layout layout = *Layout::Parse(size.layout);
        CallBuilder portable = MakeCall(version, dtype, {size.n}, grad, self, layout);
        CallBuilder simd = MakeCall(version, dtype, {size.n}, grad, self, layout);
        ASSERT_TRUE(testing::TakesTheSimdPath(simd.Args())) << size.layout;
        version.compute(portable.Args(), nullptr);
        version.simd_compute(simd.Args(), nullptr);
        const std::string context = std::string(version.name) + " " + hwy::TargetName(target) +
                                    " " + std::string(DTypeName(dtype)) +
                                    " n=" + std::to_string(size.n) + " " + size.layout;
        EXPECT_EQ(testing::CountDifferentElements(portable.tensor("out").view(),
                                                  simd.tensor("out").view(), context),
                  0)
            << context;
      }
    }
  }
}

// x / 3 is computed without a divide on targets with FMA (DivideByThree). Its rounding depends on
// x's significand alone between the subnormals and overflow, and on the sign not at all, so every
// 5th significand of the binade [1, 2) and of the subnormals goes through it here (every float32
// was checked once, outside the tests: simd_kernel.cc).
TEST_P(HardswishBackwardSimd, SignificandsAcrossABinadeMatchPortableKernel) {
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
  const Layout contiguous = *Layout::Parse("contiguous");
  for (const HardswishVersion& version : kHardswishVersions) {
    CallBuilder portable = MakeCall(version, DType::kFloat32, {n}, grad, self, contiguous);
    version.compute(portable.Args(), nullptr);
    CallBuilder simd = MakeCall(version, DType::kFloat32, {n}, grad, self, contiguous);
    version.simd_compute(simd.Args(), nullptr);
    EXPECT_EQ(testing::CountDifferentElements(portable.tensor("out").view(),
                                              simd.tensor("out").view(), version.name),
              0);
  }
}

// The cpu provider's kernel on views the SIMD path does not take: it must hand them to kernel.cc
// rather than run over them as if contiguous. Held to the reference, not to kernel.cc. Not one test
// per target: nothing is dispatched.
class HardswishBackwardSimdDispatch : public HardswishVersionTest {};

TEST_P(HardswishBackwardSimdDispatch, NonContiguousViewsAgreeWithReference) {
  const size_t n = 17 * 241;
  const std::vector<double> self = testing::WideValues(n, 8, -2, 2, {-3, 3, kNaN, -1.5}, 5);
  const std::vector<double> grad = testing::WideValues(n, 9, -4, 4, {kInf, 0, 1}, 3);
  for (const char* layout : {"strided:2", "transposed"}) {
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      CallBuilder call = MakeCall(GetParam(), dtype, {17, 241}, grad, self, *Layout::Parse(layout));
      ASSERT_FALSE(testing::TakesTheSimdPath(call.Args())) << layout;
      const auto agreement =
          testing::RunKernelAgainstReference(op(), call, GetParam().simd_compute);
      EXPECT_TRUE(agreement.passed())
          << layout << " " << DTypeName(dtype) << ": " << agreement.Describe();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(BothVersions, HardswishBackwardSimdDispatch,
                         ::testing::ValuesIn(kHardswishVersions), VersionName);

}  // namespace
}  // namespace aclnn_check::hardswish_versions
