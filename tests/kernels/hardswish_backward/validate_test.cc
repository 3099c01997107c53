// Every check of kernels/hardswish_backward/README.md with its status code and rule id, in the
// documented order.
#include <gtest/gtest.h>

#include "hardswish_backward/hardswish_backward.h"
#include "support/call_builder.h"
#include "support/operator_named.h"
#include "support/validation.h"

namespace aclnn_check::hardswish_backward {
namespace {

using testing::CallBuilder;
using testing::FolderOperator;

CallBuilder Valid(DType dtype = DType::kFloat32, Dims shape = {2, 3}) {
  CallBuilder call(FolderOperator());
  call.Zeros("gradOutput", dtype, shape).Zeros("self", dtype, shape).Zeros("out", dtype, shape);
  return call;
}


TEST(HardswishBackwardValidate, AcceptsEveryDTypeOfTheProductRankZeroToEightAndEmpty) {
  for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
    for (const Dims& shape : {Dims{}, Dims{5}, Dims{1, 2, 1, 2, 1, 2, 1, 2}, Dims{3, 0}}) {
      CallBuilder call = Valid(dtype, shape);
      EXPECT_TRUE(FolderOperator().Validate(call.Args(), Product::kA2).ok()) << FormatDims(shape);
    }
  }
}

TEST(HardswishBackwardValidate, NullPointersAre161001) {
  for (const char* slot : {"gradOutput", "self", "out"}) {
    CallBuilder call = Valid();
    call.Null(slot);
    ExpectRejected(call, ACLNN_ERR_PARAM_NULLPTR, "hardswish.check.null");
  }
  CallBuilder no_workspace = Valid();
  no_workspace.NullOutPointers(true, false);
  ExpectRejected(no_workspace, ACLNN_ERR_PARAM_NULLPTR, "hardswish.check.null");
  CallBuilder no_executor = Valid();
  no_executor.NullOutPointers(false, true);
  ExpectRejected(no_executor, ACLNN_ERR_PARAM_NULLPTR, "hardswish.check.null");
}

TEST(HardswishBackwardValidate, NullIsReportedBeforeABadShape) {
  CallBuilder call(FolderOperator());
  call.Zeros("gradOutput", DType::kFloat32, {2}).Zeros("self", DType::kFloat32, {3});
  ExpectRejected(call, ACLNN_ERR_PARAM_NULLPTR, "hardswish.check.null");
}

TEST(HardswishBackwardValidate, DTypeOutsideTheProductListIsTheMatrixRule) {
  CallBuilder bf16 = Valid(DType::kBFloat16);
  ExpectRejected(bf16, ACLNN_ERR_PARAM_INVALID, "matrix.hardswish.bfloat16", Product::kTrain);
  CallBuilder fp16 = Valid(DType::kFloat16);
  EXPECT_TRUE(FolderOperator().Validate(fp16.Args(), Product::kTrain).ok());
  CallBuilder doubles = Valid(DType::kFloat64);
  ExpectRejected(doubles, ACLNN_ERR_PARAM_INVALID, "matrix.hardswish.other");
}

TEST(HardswishBackwardValidate, UnavailableProductsRejectEveryCallThatPassesTheNullChecks) {
  for (Product product : {Product::kInf, Product::k200I}) {
    CallBuilder call = Valid();
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "matrix.hardswish.float32", product);
    // docs/contract/products.md: the null checks come first on every product, listed or not.
    for (const char* slot : {"gradOutput", "self", "out"}) {
      CallBuilder null_call = Valid(DType::kFloat16);
      null_call.Null(slot);
      ExpectRejected(null_call, ACLNN_ERR_PARAM_NULLPTR, "hardswish.check.null", product);
    }
    CallBuilder no_executor = Valid();
    no_executor.NullOutPointers(false, true);
    ExpectRejected(no_executor, ACLNN_ERR_PARAM_NULLPTR, "hardswish.check.null", product);
  }
}

TEST(HardswishBackwardValidate, MixedDTypesAre161002) {
  CallBuilder call = Valid();
  call.Zeros("out", DType::kFloat16, {2, 3});
  ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "hardswish.check.dtype");
  CallBuilder grad = Valid(DType::kFloat16);
  grad.Zeros("gradOutput", DType::kBFloat16, {2, 3});
  ExpectRejected(grad, ACLNN_ERR_PARAM_INVALID, "hardswish.check.dtype");
}

TEST(HardswishBackwardValidate, RankAboveEightIs161002) {
  const Dims nine(9, 1);
  CallBuilder call = Valid(DType::kFloat32, nine);
  ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "hardswish.check.rank");
}

TEST(HardswishBackwardValidate, ShapeMismatchIs161002) {
  CallBuilder grad = Valid();
  grad.Zeros("gradOutput", DType::kFloat32, {3, 2});
  ExpectRejected(grad, ACLNN_ERR_PARAM_INVALID, "hardswish.check.shape");
  CallBuilder out = Valid();
  out.Zeros("out", DType::kFloat32, {2, 3, 1});
  ExpectRejected(out, ACLNN_ERR_PARAM_INVALID, "hardswish.check.shape");
  CallBuilder broadcast = Valid();
  broadcast.Zeros("gradOutput", DType::kFloat32, {1, 3});
  ExpectRejected(broadcast, ACLNN_ERR_PARAM_INVALID, "hardswish.check.shape");
}

}  // namespace
}  // namespace aclnn_check::hardswish_backward
