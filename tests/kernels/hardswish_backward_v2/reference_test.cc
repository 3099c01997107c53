// The float64 reference against a forward hardswish written here, differentiated numerically,
// and against every rule row of kernels/hardswish_backward_v2/README.md (the open interval)
// computed by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "hardswish_backward_v2/hardswish_backward_v2.h"
#include "support/call_builder.h"
#include "support/operator_named.h"

namespace aclnn_check::hardswish_backward_v2 {
namespace {

using testing::CallBuilder;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using testing::FolderOperator;

double HardswishForward(double x) { return x * std::clamp(x + 3.0, 0.0, 6.0) / 6.0; }

ReferenceOutput RunReference(std::vector<double> grad, std::vector<double> self,
                             Layout layout = {}) {
  const Dims shape{static_cast<int64_t>(self.size())};
  CallBuilder call(FolderOperator());
  call.Tensor("gradOutput", DType::kFloat32, shape, grad, layout)
      .Tensor("self", DType::kFloat32, shape, self, layout)
      .Zeros("out", DType::kFloat32, shape);
  return FolderOperator().Reference(call.Args()).outputs[kOut];
}

TEST(HardswishBackwardV2Reference, MatchesFiniteDifferenceOfForward) {
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

TEST(HardswishBackwardV2Reference, OpenIntervalAtMinusThreeAndThree) {
  const ReferenceOutput out = RunReference({2.0, 2.0, 2.0, 2.0}, {-3.0, 3.0, -2.9999, 2.9999});
  EXPECT_EQ(out.value[0], 0.0);  // the factor is 0 from -3 down
  EXPECT_EQ(out.rule[0], FolderOperator().Tag("hardswish_v2.at_minus3"));
  EXPECT_EQ(out.value[1], 2.0);  // the factor is 1 from 3 up
  EXPECT_EQ(out.rule[1], FolderOperator().Tag("hardswish_v2.at_plus3"));
  const double just_inside_low = static_cast<float>(-2.9999);
  const double just_inside_high = static_cast<float>(2.9999);
  EXPECT_DOUBLE_EQ(out.value[2], 2.0 * (just_inside_low / 3 + 0.5));
  EXPECT_EQ(out.rule[2], kNoRule);
  EXPECT_DOUBLE_EQ(out.value[3], 2.0 * (just_inside_high / 3 + 0.5));
  EXPECT_EQ(out.rule[3], kNoRule);
}

TEST(HardswishBackwardV2Reference, NaNSelfGivesGradOutput) {
  const ReferenceOutput out = RunReference({5.0, -kInf}, {kNaN, kNaN});
  EXPECT_EQ(out.value[0], 5.0);
  EXPECT_EQ(out.value[1], -kInf);
  EXPECT_EQ(out.rule[0], FolderOperator().Tag("hardswish_v2.x_nan"));
  EXPECT_EQ(out.mag[0], 5.0);
}

TEST(HardswishBackwardV2Reference, InfiniteSelfIsOnItsSideOfTheInterval) {
  const ReferenceOutput out = RunReference({4.0, 4.0}, {kInf, -kInf});
  EXPECT_EQ(out.value[0], 4.0);
  EXPECT_EQ(out.value[1], 0.0);
}

TEST(HardswishBackwardV2Reference, ZeroFactorTimesSpecialAcceptsZeroOrNaN) {
  // -3 belongs to the zero side of the open interval, so it is covered as well.
  const ReferenceOutput out =
      RunReference({kInf, kNaN, -kInf, kInf, 7.0}, {-4.0, -10.0, -1.5, -3.0, -4.0});
  const RuleTag tag = FolderOperator().Tag("hardswish_v2.zero_times_special");
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(out.value[i], 0.0) << i;
    EXPECT_TRUE(std::isnan(out.alt[i])) << i;
    EXPECT_EQ(out.rule[i], tag) << i;
  }
  EXPECT_EQ(out.value[4], 0.0);
  EXPECT_EQ(out.rule[4], kNoRule);
}

TEST(HardswishBackwardV2Reference, InfiniteGradientKeepsItsSignWhereTheFactorIsNotZero) {
  const ReferenceOutput out = RunReference({kInf, -kInf}, {1.0, 4.0});
  EXPECT_EQ(out.value[0], kInf);
  EXPECT_EQ(out.value[1], -kInf);
}

TEST(HardswishBackwardV2Reference, MagnitudeIsTheSumOfTheFactorsTerms) {
  const ReferenceOutput out = RunReference({-2.0, 3.0, 4.0}, {-1.5, 6.0, -6.0});
  EXPECT_EQ(out.mag[0], 2.0 * (0.5 + 0.5));  // value 0, but the terms did not vanish
  EXPECT_EQ(out.mag[1], 3.0);
  EXPECT_EQ(out.mag[2], 0.0);
}

TEST(HardswishBackwardV2Reference, EveryLayoutGivesTheContiguousResult) {
  std::vector<double> grad, self;
  for (int i = 0; i < 24; ++i) {
    self.push_back(-4.5 + 0.4 * i);
    grad.push_back(0.25 * (i % 7) - 0.5);
  }
  CallBuilder contiguous(FolderOperator());
  contiguous.Tensor("gradOutput", DType::kFloat16, {4, 6}, grad)
      .Tensor("self", DType::kFloat16, {4, 6}, self)
      .Zeros("out", DType::kFloat16, {4, 6});
  const ReferenceOutput expected = FolderOperator().Reference(contiguous.Args()).outputs[kOut];
  for (const char* text : {"offset:3", "strided:2", "transposed"}) {
    const Layout layout = *Layout::Parse(text);
    CallBuilder call(FolderOperator());
    call.Tensor("gradOutput", DType::kFloat16, {4, 6}, grad, layout)
        .Tensor("self", DType::kFloat16, {4, 6}, self, layout)
        .Zeros("out", DType::kFloat16, {4, 6}, layout);
    const ReferenceOutput out = FolderOperator().Reference(call.Args()).outputs[kOut];
    EXPECT_EQ(out.value, expected.value) << text;
  }
}

TEST(HardswishBackwardV2Reference, EmptyTensorComputesNothing) {
  CallBuilder call(FolderOperator());
  call.Zeros("gradOutput", DType::kFloat32, {0, 3})
      .Zeros("self", DType::kFloat32, {0, 3})
      .Zeros("out", DType::kFloat32, {0, 3});
  const ReferenceResult result = FolderOperator().Reference(call.Args());
  EXPECT_TRUE(result.outputs[kOut].value.empty());
  ASSERT_EQ(result.call_rules.size(), 1u);
  EXPECT_EQ(FolderOperator().RuleOfTag(result.call_rules[0]).id, "hardswish_v2.empty");
}

}  // namespace
}  // namespace aclnn_check::hardswish_backward_v2
