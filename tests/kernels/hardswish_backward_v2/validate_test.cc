// Every check of kernels/hardswish_backward_v2/README.md with its status code and rule id, in the
// order of CANN's aclnn_hardswish_backward_v2.cpp.
#include <gtest/gtest.h>

#include "hardswish_backward_v2/hardswish_backward_v2.h"
#include "support/call_builder.h"
#include "support/operator_named.h"
#include "support/validation.h"

namespace aclnn_check::hardswish_backward_v2 {
namespace {

using testing::CallBuilder;
using testing::FolderOperator;

CallBuilder Valid(DType dtype = DType::kFloat32, Dims shape = {2, 3}) {
  CallBuilder call(FolderOperator());
  call.Zeros("gradOutput", dtype, shape).Zeros("self", dtype, shape).Zeros("out", dtype, shape);
  return call;
}


TEST(HardswishBackwardV2Validate, AcceptsEveryDTypeOfTheProductRankZeroToEightAndEmpty) {
  for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
    for (const Dims& shape : {Dims{}, Dims{5}, Dims{1, 2, 1, 2, 1, 2, 1, 2}, Dims{3, 0}}) {
      CallBuilder call = Valid(dtype, shape);
      EXPECT_TRUE(FolderOperator().Validate(call.Args(), Product::kA2).ok()) << FormatDims(shape);
    }
  }
}

TEST(HardswishBackwardV2Validate, NullPointersAre161001) {
  for (const char* slot : {"gradOutput", "self", "out"}) {
    CallBuilder call = Valid();
    call.Null(slot);
    ExpectRejected(call, ACLNN_ERR_PARAM_NULLPTR, "hardswish_v2.check.null");
  }
  CallBuilder no_workspace = Valid();
  no_workspace.NullOutPointers(true, false);
  ExpectRejected(no_workspace, ACLNN_ERR_PARAM_NULLPTR, "hardswish_v2.check.null");
  CallBuilder no_executor = Valid();
  no_executor.NullOutPointers(false, true);
  ExpectRejected(no_executor, ACLNN_ERR_PARAM_NULLPTR, "hardswish_v2.check.null");
}

TEST(HardswishBackwardV2Validate, NullIsReportedBeforeABadShape) {
  CallBuilder call(FolderOperator());
  call.Zeros("gradOutput", DType::kFloat32, {2}).Zeros("self", DType::kFloat32, {3});
  ExpectRejected(call, ACLNN_ERR_PARAM_NULLPTR, "hardswish_v2.check.null");
}

TEST(HardswishBackwardV2Validate, DTypeOutsideTheProductListIsTheMatrixRule) {
  CallBuilder bf16 = Valid(DType::kBFloat16);
  ExpectRejected(bf16, ACLNN_ERR_PARAM_INVALID, "matrix.hardswish_v2.bfloat16", Product::kTrain);
  CallBuilder fp16 = Valid(DType::kFloat16);
  EXPECT_TRUE(FolderOperator().Validate(fp16.Args(), Product::kTrain).ok());
  CallBuilder doubles = Valid(DType::kFloat64);
  ExpectRejected(doubles, ACLNN_ERR_PARAM_INVALID, "matrix.hardswish_v2.other");
}

TEST(HardswishBackwardV2Validate, UnavailableProductsRejectEveryCallThatPassesTheNullChecks) {
  for (Product product : {Product::kInf, Product::k200I}) {
    CallBuilder call = Valid();
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "matrix.hardswish_v2.float32", product);
    // docs/contract/products.md: the null checks come first on every product, listed or not.
    for (const char* slot : {"gradOutput", "self", "out"}) {
      CallBuilder null_call = Valid(DType::kFloat16);
      null_call.Null(slot);
      ExpectRejected(null_call, ACLNN_ERR_PARAM_NULLPTR, "hardswish_v2.check.null", product);
    }
    CallBuilder no_executor = Valid();
    no_executor.NullOutPointers(false, true);
    ExpectRejected(no_executor, ACLNN_ERR_PARAM_NULLPTR, "hardswish_v2.check.null", product);
  }
}

TEST(HardswishBackwardV2Validate, MixedDTypesAre161002) {
  CallBuilder call = Valid();
  call.Zeros("out", DType::kFloat16, {2, 3});
  ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "hardswish_v2.check.dtype");
  CallBuilder grad = Valid(DType::kFloat16);
  grad.Zeros("gradOutput", DType::kBFloat16, {2, 3});
  ExpectRejected(grad, ACLNN_ERR_PARAM_INVALID, "hardswish_v2.check.dtype");
}

TEST(HardswishBackwardV2Validate, RankAboveEightIs161002) {
  const Dims nine(9, 1);
  CallBuilder call = Valid(DType::kFloat32, nine);
  ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "hardswish_v2.check.rank");
  CallBuilder grad = Valid(DType::kFloat32);
  grad.Zeros("gradOutput", DType::kFloat32, nine);
  ExpectRejected(grad, ACLNN_ERR_PARAM_INVALID, "hardswish_v2.check.rank");
}

// The code checks the rank of gradOutput and self only (OP_CHECK_MAX_DIM); out is held to self's
// shape, so an out of rank 9 is a shape mismatch.
TEST(HardswishBackwardV2Validate, OutOfRankNineIsAShapeMismatch) {
  CallBuilder call = Valid(DType::kFloat32);
  call.Zeros("out", DType::kFloat32, Dims(9, 1));
  ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "hardswish_v2.check.shape");
}

// Only gradOutput and self are held to the product's list; out must match self's dtype.
TEST(HardswishBackwardV2Validate, OutOutsideTheListIsADTypeMismatch) {
  CallBuilder call = Valid(DType::kFloat32);
  call.Zeros("out", DType::kFloat64, {2, 3});
  ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "hardswish_v2.check.dtype");
  CallBuilder grad = Valid(DType::kFloat32);
  grad.Zeros("gradOutput", DType::kFloat64, {2, 3});
  ExpectRejected(grad, ACLNN_ERR_PARAM_INVALID, "matrix.hardswish_v2.other");
}

TEST(HardswishBackwardV2Validate, ShapeMismatchIs161002) {
  CallBuilder grad = Valid();
  grad.Zeros("gradOutput", DType::kFloat32, {3, 2});
  ExpectRejected(grad, ACLNN_ERR_PARAM_INVALID, "hardswish_v2.check.shape");
  CallBuilder out = Valid();
  out.Zeros("out", DType::kFloat32, {2, 3, 1});
  ExpectRejected(out, ACLNN_ERR_PARAM_INVALID, "hardswish_v2.check.shape");
  CallBuilder broadcast = Valid();
  broadcast.Zeros("gradOutput", DType::kFloat32, {1, 3});
  ExpectRejected(broadcast, ACLNN_ERR_PARAM_INVALID, "hardswish_v2.check.shape");
}

}  // namespace
}  // namespace aclnn_check::hardswish_backward_v2
