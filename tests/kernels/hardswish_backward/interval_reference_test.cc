// HardswishBackward's own rule rows of kernels/hardswish_backward/README.md (the closed interval)
// computed by hand; the rows and checks both versions share are in reference_test.cc.
#include <gtest/gtest.h>

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

ReferenceOutput RunReference(std::vector<double> grad, std::vector<double> self,
                             Layout layout = {}) {
  const Dims shape{static_cast<int64_t>(self.size())};
  CallBuilder call(FolderOperator());
  call.Tensor("gradOutput", DType::kFloat32, shape, grad, layout)
      .Tensor("self", DType::kFloat32, shape, self, layout)
      .Zeros("out", DType::kFloat32, shape);
  return FolderOperator().Reference(call.Args()).outputs[kOut];
}

TEST(HardswishBackwardClosedIntervalReference, ClosedIntervalAtMinusThreeAndThree) {
  const ReferenceOutput out = RunReference({2.0, 2.0, 2.0, 2.0}, {-3.0, 3.0, -3.0001, 3.0001});
  EXPECT_EQ(out.value[0], -1.0);  // 2 * (-3/3 + 0.5)
  EXPECT_EQ(out.rule[0], FolderOperator().Tag("hardswish.at_minus3"));
  EXPECT_EQ(out.value[1], 3.0);  // 2 * (3/3 + 0.5)
  EXPECT_EQ(out.rule[1], FolderOperator().Tag("hardswish.at_plus3"));
  EXPECT_EQ(out.value[2], 0.0);  // below -3
  EXPECT_EQ(out.value[3], 2.0);  // above 3
}

TEST(HardswishBackwardClosedIntervalReference, NaNSelfAcceptsNaNOrGradOutput) {
  const ReferenceOutput out = RunReference({5.0}, {kNaN});
  EXPECT_TRUE(std::isnan(out.value[0]));
  EXPECT_EQ(out.alt[0], 5.0);
  EXPECT_EQ(out.rule[0], FolderOperator().Tag("hardswish.x_nan"));
}

TEST(HardswishBackwardClosedIntervalReference, ZeroFactorTimesSpecialAcceptsZeroOrNaN) {
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

}  // namespace
}  // namespace aclnn_check::hardswish_backward
