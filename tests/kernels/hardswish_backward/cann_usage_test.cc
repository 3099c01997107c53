// aclnnHardswishBackward and aclnnHardswishBackwardV2 driven through the dlopen'd cpu and ref
// providers as a CANN user would; both providers agree with the float64 reference within
// docs/contract/numerics.md, and the ref provider's results are the formula of
// kernels/hardswish_backward/README.md or kernels/hardswish_backward_v2/README.md, computed here,
// rounded once.
#include <gtest/gtest.h>

#include <cmath>

#include "check/output_check.h"
#include "kernels/hardswish_backward/hardswish_versions.h"
#include "support/cann_sample.h"
#include "support/rounded_formula.h"

namespace aclnn_check::hardswish_versions {
namespace {

using testing::CallBuilder;

// gradOutput * d, d = 0 below -3, self / 3 + 0.5 inside, 1 above 3; -3 and 3 are inside for
// HardswishBackward (the closed [-3, 3]) and outside for V2 (the open (-3, 3)).
double HardswishGrad(const HardswishVersion& version, double grad, double self) {
  if (self < -3 || (!version.closed_interval && self == -3)) return 0;
  if (self > 3 || (!version.closed_interval && self == 3)) return grad;
  return grad * (self / 3 + 0.5);
}

class HardswishBackwardCannUsage : public HardswishVersionTest {};

TEST_P(HardswishBackwardCannUsage, CpuAndRefProvidersAgreeWithTheReference) {
  std::vector<double> self, grad;
  for (int i = 0; i < 4 * 130; ++i) {
    self.push_back(-4.0 + 0.0157 * i);
    grad.push_back(0.5 - 0.003 * i);
  }
  // Exactly on the interval's ends, where the versions differ.
  self[7] = -3;
  self[300] = 3;
  for (const char* spec : {"cpu", "ref"}) {
    const auto provider = Provider::Load(spec);
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      CallBuilder call(op());
      call.Tensor("gradOutput", dtype, {4, 130}, grad)
          .Tensor("self", dtype, {4, 130}, self, *Layout::Parse("transposed"))
          .Zeros("out", dtype, {4, 130}, *Layout::Parse("offset:5"));
      const testing::SampleRun run = testing::RunLikeCannSample(*provider, op(), call);
      ASSERT_EQ(run.workspace_status, 0) << provider->RecentError();
      ASSERT_EQ(run.execute_status, 0) << provider->RecentError();
      const ReferenceResult reference = op().Reference(call.Args());
      const std::vector<double> out = testing::OutputValues(call, run, "out");
      const OutputTolerance& tol = op().Tolerance("out");
      const OutputCheck check = CheckOutput(op(), reference.outputs[hardswish_backward::kOut], out,
                                            dtype, {tol.ulp, tol.c});
      EXPECT_TRUE(check.passed()) << spec << " " << DTypeName(dtype);
      if (std::string(spec) == "ref") {
        const std::vector<double> g = call.tensor("gradOutput").Values();
        const std::vector<double> x = call.tensor("self").Values();
        for (size_t i = 0; i < out.size(); ++i) {
          const double exact = HardswishGrad(GetParam(), g[i], x[i]);
          ASSERT_TRUE(
              testing::IsRoundedFormulaValue(out[i], exact, 0x1p-50 * std::fabs(exact), dtype))
              << DTypeName(dtype) << " element " << i << ": self " << x[i] << ", grad " << g[i];
        }
      }
    }
  }
}

TEST_P(HardswishBackwardCannUsage, RejectedCallWritesNothingAndReportsTheStatus) {
  const auto provider = Provider::Load("cpu");
  CallBuilder call(op());
  call.Zeros("gradOutput", DType::kFloat32, {3})
      .Zeros("self", DType::kFloat32, {4})
      .Tensor("out", HostTensor(DType::kFloat32, {3}, {}, std::byte{0x5A}));
  const testing::SampleRun run = testing::RunLikeCannSample(*provider, op(), call);
  EXPECT_EQ(run.workspace_status, ACLNN_ERR_PARAM_INVALID);
  for (std::byte b : run.outputs.at("out")) ASSERT_EQ(b, std::byte{0x5A});
}

INSTANTIATE_TEST_SUITE_P(BothVersions, HardswishBackwardCannUsage,
                         ::testing::ValuesIn(kHardswishVersions), VersionName);

}  // namespace
}  // namespace aclnn_check::hardswish_versions
