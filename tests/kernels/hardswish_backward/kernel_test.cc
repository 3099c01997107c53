// Both versions' portable float32 kernel (kernel.cc, `Compute`, which the cpu provider runs on the
// views its SIMD kernel does not take) on every layout, contiguous included, against the float64
// reference: random inputs in every dtype and layout, every special value, and the exhaustive
// 16-bit sweep of self.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "kernels/hardswish_backward/hardswish_versions.h"
#include "support/kernel_agreement.h"

namespace aclnn_check::hardswish_versions {
namespace {

using testing::CallBuilder;
using testing::RunKernelAgainstReference;

class HardswishBackwardKernel : public HardswishVersionTest {};

TEST_P(HardswishBackwardKernel, AgreesWithReferenceOnRandomInputsInEveryDTypeAndLayout) {
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> self_dist(-5, 5);
  std::normal_distribution<double> grad_dist(0, 2);
  const Dims shape{7, 33};
  std::vector<double> self(7 * 33), grad(7 * 33);
  for (size_t i = 0; i < self.size(); ++i) {
    self[i] = self_dist(random);
    grad[i] = grad_dist(random);
  }
  for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
    for (const char* layout : {"contiguous", "offset:1", "strided:3", "transposed"}) {
      CallBuilder call(op());
      call.Tensor("gradOutput", dtype, shape, grad, *Layout::Parse(layout))
          .Tensor("self", dtype, shape, self, *Layout::Parse(layout))
          .Zeros("out", dtype, shape, *Layout::Parse(layout));
      const auto agreement = RunKernelAgainstReference(op(), call, GetParam().compute);
      EXPECT_TRUE(agreement.passed())
          << DTypeName(dtype) << " " << layout << ": " << agreement.Describe();
    }
  }
}

TEST_P(HardswishBackwardKernel, SpecialValuesFollowTheRules) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> self = {-3, 3, kNaN, -4, -1.5, kInf, -kInf, 0, 1};
  const std::vector<double> grad = {1, 1, 2, kInf, kNaN, 3, 3, kInf, kNaN};
  for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
    CallBuilder call(op());
    const Dims shape{static_cast<int64_t>(self.size())};
    call.Tensor("gradOutput", dtype, shape, grad)
        .Tensor("self", dtype, shape, self)
        .Zeros("out", dtype, shape);
    const auto agreement = RunKernelAgainstReference(op(), call, GetParam().compute);
    EXPECT_TRUE(agreement.passed()) << agreement.Describe();
  }
}

TEST_P(HardswishBackwardKernel, ExhaustiveSixteenBitSelf) {
  for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
    std::vector<double> self(65536), grad(65536);
    for (uint32_t bits = 0; bits < 65536; ++bits) {
      self[bits] = dtype == DType::kFloat16 ? DecodeHalf(static_cast<uint16_t>(bits))
                                            : DecodeBFloat16(static_cast<uint16_t>(bits));
      grad[bits] = 1.0 + (bits % 13) * 0.125;
    }
    CallBuilder call(op());
    call.Tensor("gradOutput", dtype, {65536}, grad)
        .Tensor("self", dtype, {65536}, self)
        .Zeros("out", dtype, {65536});
    const auto agreement = RunKernelAgainstReference(op(), call, GetParam().compute);
    EXPECT_TRUE(agreement.passed()) << DTypeName(dtype) << ": " << agreement.Describe();
    EXPECT_LE(agreement.max_ulp(), 1.0);
  }
}

INSTANTIATE_TEST_SUITE_P(BothVersions, HardswishBackwardKernel,
                         ::testing::ValuesIn(kHardswishVersions), VersionName);

}  // namespace
}  // namespace aclnn_check::hardswish_versions
