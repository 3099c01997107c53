// The SIMD kernel (simd_kernel.cc) on every Highway target this machine runs (one test each), on
// the views it takes (contiguous, offset or not; the others go to kernel.cc). Its exp is Highway's,
// not the C library's, so it is held to the reference's bound (with every rule) rather than to
// kernel.cc's bits; the special values of A (±inf, NaN, ±0, exp's overflow edge) must give
// kernel.cc's results, and dB stays within 6 ulps of kernel.cc in float32.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "support/call_builder.h"
#include "support/kernel_agreement.h"
#include "support/operator_named.h"
#include "support/simd_targets.h"
#include "swi_glu_grad/swi_glu_grad.h"

// Highway's target-parametrised fixture (support/simd_targets.h), declared outside our namespaces,
// where hwy_gtest.h's unqualified `testing::` names GoogleTest's.
HWY_BEFORE_TEST(SwiGluGradSimd);

namespace aclnn_check::swi_glu_grad {
namespace {

using testing::CallBuilder;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using testing::FolderOperator;

CallBuilder MakeCall(DType dtype, const Dims& x_shape, int64_t dim, const std::vector<double>& x,
                     const std::vector<double>& grad, const Layout& layout) {
  Dims half = x_shape;
  half[static_cast<size_t>(dim < 0 ? dim + static_cast<int64_t>(x_shape.size()) : dim)] /= 2;
  CallBuilder call(FolderOperator());
  call.Tensor("yGrad", dtype, half, grad, layout)
      .Tensor("x", dtype, x_shape, x, layout)
      .Zeros("out", dtype, x_shape, layout)
      .Param("dim", dim);
  return call;
}

struct Shape {
  Dims x;
  int64_t dim;
  const char* layout;
};

const Shape kShapes[] = {{{2}, 0, "contiguous"},
                         {{3, 34}, -1, "offset:1"},
                         {{34, 7}, 0, "contiguous"},
                         {{5, 6, 17}, 1, "contiguous"},
                         {{2, 1000004}, -1, "contiguous"}};

std::vector<double> XValues(size_t n) {
  // -88.72283935546875 is the first float32 whose exp(-A) overflows.
  return testing::WideValues(n, 7, -3, 4,
                             {kInf, -kInf, kNaN, 0, -0.0, 88.0, -88.7228317260742188,
                              -88.72283935546875, -104.5, 120, -120},
                             3);
}

TEST_P(SwiGluGradSimd, AgreesWithReference) {
  const int64_t target = GetParam();
  for (const Shape& shape : kShapes) {
    const size_t n = static_cast<size_t>(NumElements(shape.x));
    const std::vector<double> x = XValues(n);
    const std::vector<double> grad =
        testing::WideValues(n / 2, 8, -6, 6, {kInf, -kInf, kNaN, 0, -0.0, 1}, 5);
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      CallBuilder call = MakeCall(dtype, shape.x, shape.dim, x, grad, *Layout::Parse(shape.layout));
      ASSERT_TRUE(testing::TakesTheSimdPath(call.Args())) << shape.layout;
      const auto agreement =
          testing::RunKernelAgainstReference(FolderOperator(), call, SimdCompute);
      EXPECT_TRUE(agreement.passed())
          << hwy::TargetName(target) << " " << DTypeName(dtype) << " " << FormatDims(shape.x) << " "
          << shape.layout << ": " << agreement.Describe();
    }
  }
}

// Highway's exp and glibc's expf are each within 1 ulp of e^x, so they may be 2 ulps apart (seen
// with clang at -O1); 1 + e and the division may each round the other way (2 more), and so may
// each of dB = s * A * yGrad's two products: at most 6 ulps.
// dA's factor s * (1 + A * (1 - s)) cancels near A = -1.28 and magnifies it, so dA is held to the
// reference's bound only (the test above). Special values must be kernel.cc's everywhere.
TEST_P(SwiGluGradSimd, KeepsPortableSpecialValuesAndStaysWithinSixUlpsInTheBHalf) {
  const int64_t target = GetParam();
  for (const Shape& shape : kShapes) {
    const size_t n = static_cast<size_t>(NumElements(shape.x));
    const std::vector<double> x = XValues(n);
    const std::vector<double> grad = testing::WideValues(n / 2, 9, -6, 6, {kInf, kNaN, 0}, 5);
    const Layout layout = *Layout::Parse(shape.layout);
    CallBuilder portable = MakeCall(DType::kFloat32, shape.x, shape.dim, x, grad, layout);
    CallBuilder simd = MakeCall(DType::kFloat32, shape.x, shape.dim, x, grad, layout);
    ASSERT_TRUE(testing::TakesTheSimdPath(simd.Args())) << shape.layout;
    Compute(portable.Args(), nullptr);
    SimdCompute(simd.Args(), nullptr);
    const Split split = SplitOf(simd.Args());
    const std::vector<double> want = portable.tensor("out").Values();
    const std::vector<double> got = simd.tensor("out").Values();
    int64_t wrong = 0;
    uint64_t worst_b_ulps = 0;
    for (size_t k = 0; k < want.size(); ++k) {
      const bool both_nan = std::isnan(want[k]) && std::isnan(got[k]);
      const bool same_class = both_nan || (std::isinf(want[k]) && want[k] == got[k]) ||
                              (std::isfinite(want[k]) && std::isfinite(got[k]));
      if (!same_class && ++wrong <= 5) {
        ADD_FAILURE() << hwy::TargetName(target) << " " << FormatDims(shape.x) << " element " << k
                      << ": portable " << want[k] << ", simd " << got[k];
      }
      const bool b_half = (static_cast<int64_t>(k) / split.inner) % (2 * split.half) >= split.half;
      if (b_half && std::isfinite(want[k]) && std::isfinite(got[k])) {
        worst_b_ulps = std::max(worst_b_ulps, UlpDistance(want[k], got[k], DType::kFloat32));
      }
    }
    EXPECT_EQ(wrong, 0) << hwy::TargetName(target) << " " << FormatDims(shape.x);
    EXPECT_LE(worst_b_ulps, 6u) << hwy::TargetName(target) << " " << FormatDims(shape.x);
  }
}

// The cpu provider's kernel on views the SIMD path does not take: it must hand them to kernel.cc
// rather than run over them as if contiguous. Held to the reference, not to kernel.cc. Not one test
// per target: nothing is dispatched.
TEST(SwiGluGradSimdDispatch, NonContiguousViewsAgreeWithReference) {
  const Shape shapes[] = {{{9, 34}, -1, "strided:2"}, {{10, 34}, 0, "transposed"}};
  for (const Shape& shape : shapes) {
    const size_t n = static_cast<size_t>(NumElements(shape.x));
    const std::vector<double> x = XValues(n);
    const std::vector<double> grad = testing::WideValues(n / 2, 8, -6, 6, {kInf, kNaN, 0}, 5);
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      CallBuilder call = MakeCall(dtype, shape.x, shape.dim, x, grad, *Layout::Parse(shape.layout));
      ASSERT_FALSE(testing::TakesTheSimdPath(call.Args())) << shape.layout;
      const auto agreement =
          testing::RunKernelAgainstReference(FolderOperator(), call, SimdCompute);
      EXPECT_TRUE(agreement.passed())
          << DTypeName(dtype) << " " << shape.layout << ": " << agreement.Describe();
    }
  }
}

}  // namespace
}  // namespace aclnn_check::swi_glu_grad
