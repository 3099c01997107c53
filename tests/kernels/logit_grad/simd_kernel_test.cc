// The SIMD kernel (simd_kernel.cc) on every Highway target this machine runs (one test each),
// against the portable kernel (kernel.cc) bit for bit on the views it takes: every row of the eps
// table (eps values that float32 cannot hold included, with x at eps, 1 - eps and their float32
// neighbours), special x and dy, odd sizes. Non-contiguous views go to kernel.cc (kernel_test.cc);
// that the cpu provider's entry sends them there is checked against the reference.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "logit_grad/logit_grad.h"
#include "support/call_builder.h"
#include "support/kernel_agreement.h"
#include "support/operator_named.h"
#include "support/simd_targets.h"

// Highway's target-parametrised fixture (support/simd_targets.h), declared outside our namespaces,
// where hwy_gtest.h's unqualified `testing::` names GoogleTest's.
HWY_BEFORE_TEST(LogitGradSimd);

namespace aclnn_check::logit_grad {
namespace {

using testing::CallBuilder;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using testing::FolderOperator;

CallBuilder MakeCall(DType dtype, int64_t n, const std::vector<double>& x,
                     const std::vector<double>& dy, double eps, const Layout& layout) {
  CallBuilder call(FolderOperator());
  call.Tensor("x", dtype, {n}, x, layout)
      .Tensor("dy", dtype, {n}, dy, layout)
      .Zeros("out", dtype, {n}, layout)
      .Param("eps", eps);
  return call;
}

// x values on both sides of eps and 1 - eps, as float32 and as the dtype would hold them.
std::vector<double> EdgesOf(double eps) {
  std::vector<double> edges = {0, -0.0, 1, kNaN, kInf, -kInf, -0.5, 1.5, 0.5};
  for (double bound : {eps, 1 - eps}) {
    const float f = static_cast<float>(bound);
    edges.insert(edges.end(), {bound, f, std::nextafter(f, -1.0f), std::nextafter(f, 2.0f)});
  }
  return edges;
}

TEST_P(LogitGradSimd, MatchesPortableKernelBitForBitOnEveryEpsRow) {
  const int64_t target = GetParam();
  const double eps_values[] = {-1, 0, 1e-6, 0.1, 0.25, 0.3, 0.5, 0.7, 1, 2, kInf, kNaN, 1e-300};
  struct Size {
    int64_t n;
    const char* layout;
  };
  const Size sizes[] = {
      {1, "contiguous"}, {17, "offset:1"}, {4099, "contiguous"}, {1000003, "contiguous"}};
  for (double eps : eps_values) {
    for (const Size& size : sizes) {
      if (size.n > 100000 && eps != 0.25) continue;  // one long run (many items) is enough
      const size_t n = static_cast<size_t>(size.n);
      std::vector<double> x = testing::WideValues(n, 3, -3, 0, EdgesOf(eps), 3);
      for (double& v : x) {
        if (std::isfinite(v) && std::fabs(v) < 4) v += 0.5;  // centre the bulk on (0, 1)
      }
      const std::vector<double> dy =
          testing::WideValues(n, 4, -20, 20, {0, -0.0, kInf, -kInf, kNaN, 1, -1}, 2);
      for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
        const Layout layout = *Layout::Parse(size.layout);
        CallBuilder portable = MakeCall(dtype, size.n, x, dy, eps, layout);
        CallBuilder simd = MakeCall(dtype, size.n, x, dy, eps, layout);
        ASSERT_TRUE(testing::TakesTheSimdPath(simd.Args())) << size.layout;
        Compute(portable.Args(), nullptr);
        SimdCompute(simd.Args(), nullptr);
        const std::string context = std::string(hwy::TargetName(target)) + " " +
                                    std::string(DTypeName(dtype)) + " eps=" + std::to_string(eps) +
                                    " n=" + std::to_string(size.n) + " " + size.layout;
        EXPECT_EQ(testing::CountDifferentElements(portable.tensor("out").view(),
                                                  simd.tensor("out").view(), context),
                  0)
            << context;
      }
    }
  }
}

// The cpu provider's kernel on views the SIMD path does not take: it must hand them to kernel.cc
// rather than run over them as if contiguous. Held to the reference, not to kernel.cc. Not one test
// per target: nothing is dispatched.
TEST(LogitGradSimdDispatch, NonContiguousViewsAgreeWithReference) {
  const int64_t n = 4099;
  std::vector<double> x = testing::WideValues(static_cast<size_t>(n), 3, -3, 0, EdgesOf(0.25), 3);
  for (double& v : x) {
    if (std::isfinite(v) && std::fabs(v) < 4) v += 0.5;
  }
  const std::vector<double> dy =
      testing::WideValues(static_cast<size_t>(n), 4, -6, 6, {0, kInf, kNaN, 1}, 2);
  for (double eps : {-1.0, 0.25}) {
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      CallBuilder call = MakeCall(dtype, n, x, dy, eps, *Layout::Parse("strided:2"));
      ASSERT_FALSE(testing::TakesTheSimdPath(call.Args()));
      const auto agreement =
          testing::RunKernelAgainstReference(FolderOperator(), call, SimdCompute);
      EXPECT_TRUE(agreement.passed())
          << "eps=" << eps << " " << DTypeName(dtype) << ": " << agreement.Describe();
    }
  }
}

}  // namespace
}  // namespace aclnn_check::logit_grad
