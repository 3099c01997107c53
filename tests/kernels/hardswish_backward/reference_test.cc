// The float64 reference against a forward hardswish written here, differentiated numerically,
// and against every rule row of kernels/hardswish_backward/README.md computed by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "hardswish_backward/hardswish_backward.h"
#include "support/call_builder.h"
#include "support/operator_named.h"

namespace aclnn_check::hardswish_backward {
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

TEST(HardswishBackwardReference, MatchesFiniteDifferenceOfForward) {
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

TEST(HardswishBackwardReference, ClosedIntervalAtMinusThreeAndThree) {
  const ReferenceOutput out = RunReference({2.0, 2.0, 2.0, 2.0}, {-3.0, 3.0, -3.0001, 3.0001});
  EXPECT_EQ(out.value[0], -1.0);  // 2 * (-3/3 + 0.5)
  EXPECT_EQ(out.rule[0], FolderOperator().Tag("hardswish.at_minus3"));
  EXPECT_EQ(out.value[1], 3.0);   // 2 * (3/3 + 0.5)
  EXPECT_EQ(out.rule[1], FolderOperator().Tag("hardswish.at_plus3"));
  EXPECT_EQ(out.value[2], 0.0);   // below -3
  EXPECT_EQ(out.value[3], 2.0);   // above 3
}

TEST(HardswishBackwardReference, NaNSelfAcceptsNaNOrGradOutput) {
  const ReferenceOutput out = RunReference({5.0}, {kNaN});
  EXPECT_TRUE(std::isnan(out.value[0]));
  EXPECT_EQ(out.alt[0], 5.0);
  EXPECT_EQ(out.rule[0], FolderOperator().Tag("hardswish.x_nan"));
}

TEST(HardswishBackwardReference, ZeroFactorTimesSpecialAcceptsZeroOrNaN) {
  const ReferenceOutput out = RunReference({kInf, kNaN, -kInf, 7.0}, {-4.0, -10.0, -1.5, -4.0});
  const RuleTag tag = FolderOperator().Tag("hardswish.zero_times_special");
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(out.value[i], 0.0) << i;
    EXPECT_TRUE(std::isnan(out.alt[i])) << i;
    EXPECT_EQ(out.rule[i], tag) << i;
  }
  EXPECT_EQ(out.value[3], 0.0);
  EXPECT_EQ(out.rule[3], kNoRule);
}

TEST(HardswishBackwardReference, InfiniteGradientKeepsItsSignWhereTheFactorIsNotZero) {
  const ReferenceOutput out = RunReference({kInf, -kInf}, {1.0, 4.0});
  EXPECT_EQ(out.value[0], kInf);
  EXPECT_EQ(out.value[1], -kInf);
}

TEST(HardswishBackwardReference, MagnitudeIsTheSumOfTheFactorsTerms) {
  const ReferenceOutput out = RunReference({-2.0, 3.0, 4.0}, {-1.5, 6.0, -6.0});
  EXPECT_EQ(out.mag[0], 2.0 * (0.5 + 0.5));  // value 0, but the terms did not vanish
  EXPECT_EQ(out.mag[1], 3.0);
  EXPECT_EQ(out.mag[2], 0.0);
}

TEST(HardswishBackwardReference, EveryLayoutGivesTheContiguousResult) {
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

TEST(HardswishBackwardReference, EmptyTensorComputesNothing) {
  CallBuilder call(FolderOperator());
  call.Zeros("gradOutput", DType::kFloat32, {0, 3})
      .Zeros("self", DType::kFloat32, {0, 3})
      .Zeros("out", DType::kFloat32, {0, 3});
  const ReferenceResult result = FolderOperator().Reference(call.Args());
  EXPECT_TRUE(result.outputs[kOut].value.empty());
  ASSERT_EQ(result.call_rules.size(), 1u);
  EXPECT_EQ(FolderOperator().RuleOfTag(result.call_rules[0]).id, "hardswish.empty");
}

}  // namespace
}  // namespace aclnn_check::hardswish_backward
