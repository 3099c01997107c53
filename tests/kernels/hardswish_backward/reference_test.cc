// Both versions' float64 reference against a forward hardswish written here, differentiated
// numerically, and against the rule rows they share. Each version's own rows (the interval's
// ends): interval_reference_test.cc here and tests/kernels/hardswish_backward_v2/reference_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/hardswish_backward/hardswish_versions.h"
#include "support/call_builder.h"

namespace aclnn_check::hardswish_versions {
namespace {

using testing::CallBuilder;

constexpr double kInf = std::numeric_limits<double>::infinity();

double HardswishForward(double x) { return x * std::clamp(x + 3.0, 0.0, 6.0) / 6.0; }

class HardswishBackwardReference : public HardswishVersionTest {
 protected:
  ReferenceOutput RunReference(std::vector<double> grad, std::vector<double> self,
                               Layout layout = {}) const {
    const Dims shape{static_cast<int64_t>(self.size())};
    CallBuilder call(op());
    call.Tensor("gradOutput", DType::kFloat32, shape, grad, layout)
        .Tensor("self", DType::kFloat32, shape, self, layout)
        .Zeros("out", DType::kFloat32, shape);
    return op().Reference(call.Args()).outputs[hardswish_backward::kOut];
  }
};

TEST_P(HardswishBackwardReference, MatchesFiniteDifferenceOfForward) {
  std::vector<double> grad, self;
  for (double x = -5.0; x <= 5.0; x += 0.0625 * 3.3) {
    if (std::fabs(std::fabs(x) - 3.0) < 1e-3) continue;  // the kinks are rules, not calculus
    self.push_back(x);
    grad.push_back(1.0 + std::sin(x));
  }
  const ReferenceOutput out = RunReference(grad, self);
  for (size_t i = 0; i < self.size(); ++i) {
    const double x = static_cast<float>(self[i]);  // the value the float32 tensor holds
    const double g = static_cast<float>(grad[i]);
    const double h = 1e-6;
    const double numeric = g * (HardswishForward(x + h) - HardswishForward(x - h)) / (2 * h);
    EXPECT_NEAR(out.value[i], numeric, 1e-8 * (1 + std::fabs(numeric))) << "x = " << x;
    EXPECT_EQ(out.rule[i], kNoRule);
  }
}

TEST_P(HardswishBackwardReference, InfiniteGradientKeepsItsSignWhereTheFactorIsNotZero) {
  const ReferenceOutput out = RunReference({kInf, -kInf}, {1.0, 4.0});
  EXPECT_EQ(out.value[0], kInf);
  EXPECT_EQ(out.value[1], -kInf);
}

TEST_P(HardswishBackwardReference, MagnitudeIsTheSumOfTheFactorsTerms) {
  const ReferenceOutput out = RunReference({-2.0, 3.0, 4.0}, {-1.5, 6.0, -6.0});
  EXPECT_EQ(out.mag[0], 2.0 * (0.5 + 0.5));  // value 0, but the terms did not vanish
  EXPECT_EQ(out.mag[1], 3.0);
  EXPECT_EQ(out.mag[2], 0.0);
}

TEST_P(HardswishBackwardReference, EveryLayoutGivesTheContiguousResult) {
  std::vector<double> grad, self;
  for (int i = 0; i < 24; ++i) {
    self.push_back(-4.5 + 0.4 * i);
    grad.push_back(0.25 * (i % 7) - 0.5);
  }
  CallBuilder contiguous(op());
  contiguous.Tensor("gradOutput", DType::kFloat16, {4, 6}, grad)
      .Tensor("self", DType::kFloat16, {4, 6}, self)
      .Zeros("out", DType::kFloat16, {4, 6});
  const ReferenceOutput expected =
      op().Reference(contiguous.Args()).outputs[hardswish_backward::kOut];
  for (const char* text : {"offset:3", "strided:2", "transposed"}) {
    const Layout layout = *Layout::Parse(text);
    CallBuilder call(op());
    call.Tensor("gradOutput", DType::kFloat16, {4, 6}, grad, layout)
        .Tensor("self", DType::kFloat16, {4, 6}, self, layout)
        .Zeros("out", DType::kFloat16, {4, 6}, layout);
    const ReferenceOutput out = op().Reference(call.Args()).outputs[hardswish_backward::kOut];
    EXPECT_EQ(out.value, expected.value) << text;
  }
}

TEST_P(HardswishBackwardReference, EmptyTensorComputesNothing) {
  CallBuilder call(op());
  call.Zeros("gradOutput", DType::kFloat32, {0, 3})
      .Zeros("self", DType::kFloat32, {0, 3})
      .Zeros("out", DType::kFloat32, {0, 3});
  const ReferenceResult result = op().Reference(call.Args());
  EXPECT_TRUE(result.outputs[hardswish_backward::kOut].value.empty());
  ASSERT_EQ(result.call_rules.size(), 1u);
  EXPECT_EQ(op().RuleOfTag(result.call_rules[0]).id, GetParam().Rule("empty"));
}

INSTANTIATE_TEST_SUITE_P(BothVersions, HardswishBackwardReference,
                         ::testing::ValuesIn(kHardswishVersions), VersionName);

}  // namespace
}  // namespace aclnn_check::hardswish_versions
