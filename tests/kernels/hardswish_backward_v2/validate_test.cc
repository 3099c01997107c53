// The checks of kernels/hardswish_backward_v2/README.md where V2 goes beyond HardswishBackward:
// the ranks and dtypes of gradOutput and out. The checks both versions share run for both in
// tests/kernels/hardswish_backward/validate_test.cc.
#include <gtest/gtest.h>

#include "hardswish_backward_v2/hardswish_backward_v2.h"
#include "support/call_builder.h"
#include "support/operator_named.h"
#include "support/validation.h"

namespace aclnn_check::hardswish_backward_v2 {
namespace {

using testing::CallBuilder;
using testing::FolderOperator;
using testing::Rejected;

CallBuilder Valid(DType dtype = DType::kFloat32, Dims shape = {2, 3}) {
  CallBuilder call(FolderOperator());
  call.Zeros("gradOutput", dtype, shape).Zeros("self", dtype, shape).Zeros("out", dtype, shape);
  return call;
}

TEST(HardswishBackwardV2Validate, GradOutputOfRankNineIs161002) {
  CallBuilder grad = Valid(DType::kFloat32);
  grad.Zeros("gradOutput", DType::kFloat32, Dims(9, 1));
  EXPECT_TRUE(Rejected(grad, ACLNN_ERR_PARAM_INVALID, "hardswish_v2.check.rank"));
}

// The code checks the rank of gradOutput and self only (OP_CHECK_MAX_DIM); out is held to self's
// shape, so an out of rank 9 is a shape mismatch.
TEST(HardswishBackwardV2Validate, OutOfRankNineIsAShapeMismatch) {
  CallBuilder call = Valid(DType::kFloat32);
  call.Zeros("out", DType::kFloat32, Dims(9, 1));
  EXPECT_TRUE(Rejected(call, ACLNN_ERR_PARAM_INVALID, "hardswish_v2.check.shape"));
}

// Only gradOutput and self are held to the product's list; out must match self's dtype.
TEST(HardswishBackwardV2Validate, OutOutsideTheListIsADTypeMismatch) {
  CallBuilder call = Valid(DType::kFloat32);
  call.Zeros("out", DType::kFloat64, {2, 3});
  EXPECT_TRUE(Rejected(call, ACLNN_ERR_PARAM_INVALID, "hardswish_v2.check.dtype"));
  CallBuilder grad = Valid(DType::kFloat32);
  grad.Zeros("gradOutput", DType::kFloat64, {2, 3});
  EXPECT_TRUE(Rejected(grad, ACLNN_ERR_PARAM_INVALID, "matrix.hardswish_v2.other"));
}

}  // namespace
}  // namespace aclnn_check::hardswish_backward_v2
