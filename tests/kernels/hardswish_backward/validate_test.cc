// Every check the two versions share (kernels/hardswish_backward/README.md,
// kernels/hardswish_backward_v2/README.md) with its status code and rule id, in the documented
// order; V2's own checks are in tests/kernels/hardswish_backward_v2/validate_test.cc.
#include <gtest/gtest.h>

#include "kernels/hardswish_backward/hardswish_versions.h"
#include "support/call_builder.h"
#include "support/validation.h"

namespace aclnn_check::hardswish_versions {
namespace {

using testing::CallBuilder;

class HardswishBackwardValidate : public HardswishVersionTest {
 protected:
  CallBuilder Valid(DType dtype = DType::kFloat32, Dims shape = {2, 3}) const {
    CallBuilder call(op());
    call.Zeros("gradOutput", dtype, shape).Zeros("self", dtype, shape).Zeros("out", dtype, shape);
    return call;
  }
};

TEST_P(HardswishBackwardValidate, AcceptsEveryDTypeOfTheProductRankZeroToEightAndEmpty) {
  for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
    for (const Dims& shape : {Dims{}, Dims{5}, Dims{1, 2, 1, 2, 1, 2, 1, 2}, Dims{3, 0}}) {
      CallBuilder call = Valid(dtype, shape);
      EXPECT_TRUE(op().Validate(call.Args(), Product::kA2).ok()) << FormatDims(shape);
    }
  }
}

TEST_P(HardswishBackwardValidate, NullPointersAre161001) {
  for (const char* slot : {"gradOutput", "self", "out"}) {
    CallBuilder call = Valid();
    call.Null(slot);
    ExpectRejected(call, ACLNN_ERR_PARAM_NULLPTR, GetParam().Rule("check.null"));
  }
  CallBuilder no_workspace = Valid();
  no_workspace.NullOutPointers(true, false);
  ExpectRejected(no_workspace, ACLNN_ERR_PARAM_NULLPTR, GetParam().Rule("check.null"));
  CallBuilder no_executor = Valid();
  no_executor.NullOutPointers(false, true);
  ExpectRejected(no_executor, ACLNN_ERR_PARAM_NULLPTR, GetParam().Rule("check.null"));
}

TEST_P(HardswishBackwardValidate, NullIsReportedBeforeABadShape) {
  CallBuilder call(op());
  call.Zeros("gradOutput", DType::kFloat32, {2}).Zeros("self", DType::kFloat32, {3});
  ExpectRejected(call, ACLNN_ERR_PARAM_NULLPTR, GetParam().Rule("check.null"));
}

TEST_P(HardswishBackwardValidate, DTypeOutsideTheProductListIsTheMatrixRule) {
  CallBuilder bf16 = Valid(DType::kBFloat16);
  ExpectRejected(bf16, ACLNN_ERR_PARAM_INVALID, GetParam().MatrixRule("bfloat16"), Product::kTrain);
  CallBuilder fp16 = Valid(DType::kFloat16);
  EXPECT_TRUE(op().Validate(fp16.Args(), Product::kTrain).ok());
  CallBuilder doubles = Valid(DType::kFloat64);
  ExpectRejected(doubles, ACLNN_ERR_PARAM_INVALID, GetParam().MatrixRule("other"));
}

TEST_P(HardswishBackwardValidate, UnavailableProductsRejectEveryCallThatPassesTheNullChecks) {
  for (Product product : {Product::kInf, Product::k200I}) {
    CallBuilder call = Valid();
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, GetParam().MatrixRule("float32"), product);
    // docs/contract/products.md: the null checks come first on every product, listed or not.
    for (const char* slot : {"gradOutput", "self", "out"}) {
      CallBuilder null_call = Valid(DType::kFloat16);
      null_call.Null(slot);
      ExpectRejected(null_call, ACLNN_ERR_PARAM_NULLPTR, GetParam().Rule("check.null"), product);
    }
    CallBuilder no_executor = Valid();
    no_executor.NullOutPointers(false, true);
    ExpectRejected(no_executor, ACLNN_ERR_PARAM_NULLPTR, GetParam().Rule("check.null"), product);
  }
}

TEST_P(HardswishBackwardValidate, MixedDTypesAre161002) {
  CallBuilder call = Valid();
  call.Zeros("out", DType::kFloat16, {2, 3});
  ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, GetParam().Rule("check.dtype"));
  CallBuilder grad = Valid(DType::kFloat16);
  grad.Zeros("gradOutput", DType::kBFloat16, {2, 3});
  ExpectRejected(grad, ACLNN_ERR_PARAM_INVALID, GetParam().Rule("check.dtype"));
}

TEST_P(HardswishBackwardValidate, RankAboveEightIs161002) {
  const Dims nine(9, 1);
  CallBuilder call = Valid(DType::kFloat32, nine);
  ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, GetParam().Rule("check.rank"));
}

TEST_P(HardswishBackwardValidate, ShapeMismatchIs161002) {
  CallBuilder grad = Valid();
  grad.Zeros("gradOutput", DType::kFloat32, {3, 2});
  ExpectRejected(grad, ACLNN_ERR_PARAM_INVALID, GetParam().Rule("check.shape"));
  CallBuilder out = Valid();
  out.Zeros("out", DType::kFloat32, {2, 3, 1});
  ExpectRejected(out, ACLNN_ERR_PARAM_INVALID, GetParam().Rule("check.shape"));
  CallBuilder broadcast = Valid();
  broadcast.Zeros("gradOutput", DType::kFloat32, {1, 3});
  ExpectRejected(broadcast, ACLNN_ERR_PARAM_INVALID, GetParam().Rule("check.shape"));
}

INSTANTIATE_TEST_SUITE_P(BothVersions, HardswishBackwardValidate,
                         ::testing::ValuesIn(kHardswishVersions), VersionName);

}  // namespace
}  // namespace aclnn_check::hardswish_versions
