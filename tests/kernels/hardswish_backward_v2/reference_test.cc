// HardswishBackwardV2's own rule rows of kernels/hardswish_backward_v2/README.md (the open
// interval) computed by hand; the rows and checks both versions share are in
// tests/kernels/hardswish_backward/reference_test.cc.
#include <gtest/gtest.h>

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

ReferenceOutput RunReference(std::vector<double> grad, std::vector<double> self,
                             Layout layout = {}) {
  const Dims shape{static_cast<int64_t>(self.size())};
  CallBuilder call(FolderOperator());
  call.Tensor("gradOutput", DType::kFloat32, shape, grad, layout)
      .Tensor("self", DType::kFloat32, shape, self, layout)
      .Zeros("out", DType::kFloat32, shape);
  return FolderOperator().Reference(call.Args()).outputs[kOut];
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

}  // namespace
}  // namespace aclnn_check::hardswish_backward_v2
