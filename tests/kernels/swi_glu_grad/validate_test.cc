// Every check of kernels/swi_glu_grad/README.md with its status code and rule id, in the documented
// order.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/call_builder.h"
#include "support/operator_named.h"
#include "support/validation.h"
#include "swi_glu_grad/swi_glu_grad.h"

namespace aclnn_check::swi_glu_grad {
namespace {

using testing::CallBuilder;
using testing::FolderOperator;

// x = [2, 64], split along dim -1: yGrad = [2, 32]; a half row is 32 elements (64 bytes in fp16).
CallBuilder Valid(DType dtype = DType::kFloat32, Dims x_shape = {2, 64}, int64_t dim = -1) {
  const int64_t rank = static_cast<int64_t>(x_shape.size());
  Dims ygrad_shape = x_shape;
  ygrad_shape[static_cast<size_t>(dim < 0 ? dim + rank : dim)] /= 2;
  CallBuilder call(FolderOperator());
  call.Zeros("yGrad", dtype, ygrad_shape)
      .Zeros("x", dtype, x_shape)
      .Zeros("out", dtype, x_shape)
      .Param("dim", dim);
  return call;
}


TEST(SwiGluGradValidate, AcceptsEveryDTypeRankOneToEightAndEveryDim) {
  for (Product product : {Product::kA2, Product::kA3}) {
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      CallBuilder call = Valid(dtype);
      EXPECT_TRUE(FolderOperator().Validate(call.Args(), product).ok()) << DTypeName(dtype);
    }
  }
  CallBuilder rank1 = Valid(DType::kFloat32, {2}, 0);
  EXPECT_TRUE(FolderOperator().Validate(rank1.Args(), Product::kA2).ok());
  const Dims eight{1, 2, 1, 2, 1, 2, 1, 2};
  for (int64_t dim = -8; dim < 8; ++dim) {
    if (eight[static_cast<size_t>(dim < 0 ? dim + 8 : dim)] != 2) continue;
    CallBuilder call = Valid(DType::kFloat16, eight, dim);
    EXPECT_TRUE(FolderOperator().Validate(call.Args(), Product::kA2).ok()) << dim;
  }
}

TEST(SwiGluGradValidate, NullPointersAre161001) {
  for (const char* slot : {"yGrad", "x", "out"}) {
    CallBuilder call = Valid();
    call.Null(slot);
    ExpectRejected(call, ACLNN_ERR_PARAM_NULLPTR, "swiglu.check.null");
  }
  CallBuilder no_workspace = Valid();
  no_workspace.NullOutPointers(true, false);
  ExpectRejected(no_workspace, ACLNN_ERR_PARAM_NULLPTR, "swiglu.check.null");
  CallBuilder no_executor = Valid();
  no_executor.NullOutPointers(false, true);
  ExpectRejected(no_executor, ACLNN_ERR_PARAM_NULLPTR, "swiglu.check.null");
}

TEST(SwiGluGradValidate, NullIsReportedBeforeEveryOtherProblem) {
  // Mixed dtypes, an odd split, a bad dim and an empty out: the null yGrad still wins.
  CallBuilder call(FolderOperator());
  call.Zeros("x", DType::kFloat64, {3, 0})
      .Zeros("out", DType::kFloat16, {0})
      .Param("dim", int64_t{9});
  ExpectRejected(call, ACLNN_ERR_PARAM_NULLPTR, "swiglu.check.null");
  CallBuilder out_pointer = Valid(DType::kFloat64, {3});
  out_pointer.NullOutPointers(false, true);
  ExpectRejected(out_pointer, ACLNN_ERR_PARAM_NULLPTR, "swiglu.check.null");
}

TEST(SwiGluGradValidate, DTypeOutsideTheProductListIsTheMatrixRule) {
  CallBuilder bf16 = Valid(DType::kBFloat16);
  ExpectRejected(bf16, ACLNN_ERR_PARAM_INVALID, "matrix.swiglu.bfloat16", Product::kInf);
  for (DType dtype : {DType::kFloat16, DType::kFloat32}) {
    CallBuilder call = Valid(dtype);
    EXPECT_TRUE(FolderOperator().Validate(call.Args(), Product::kInf).ok()) << DTypeName(dtype);
  }
  CallBuilder doubles = Valid(DType::kFloat64);
  ExpectRejected(doubles, ACLNN_ERR_PARAM_INVALID, "matrix.swiglu.other");
  CallBuilder ints = Valid(DType::kInt32);
  ExpectRejected(ints, ACLNN_ERR_PARAM_INVALID, "matrix.swiglu.other", Product::kA3);
  // Only one tensor outside the list: the matrix rule, not the mixed-dtype check.
  CallBuilder grad = Valid(DType::kFloat16);
  grad.Zeros("yGrad", DType::kBFloat16, {2, 32});
  ExpectRejected(grad, ACLNN_ERR_PARAM_INVALID, "matrix.swiglu.bfloat16", Product::kInf);
}

TEST(SwiGluGradValidate, UnavailableProductsRejectEveryCall) {
  for (Product product : {Product::kTrain, Product::k200I}) {
    CallBuilder call = Valid(DType::kFloat16);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "matrix.swiglu.float16", product);
    // docs/contract/products.md: the null checks come first on every product, listed or not.
    for (const char* slot : {"yGrad", "x", "out"}) {
      CallBuilder null_call = Valid(DType::kBFloat16);
      null_call.Null(slot);
      ExpectRejected(null_call, ACLNN_ERR_PARAM_NULLPTR, "swiglu.check.null", product);
    }
    CallBuilder no_executor = Valid();
    no_executor.NullOutPointers(false, true);
    ExpectRejected(no_executor, ACLNN_ERR_PARAM_NULLPTR, "swiglu.check.null", product);
  }
}

TEST(SwiGluGradValidate, MixedDTypesAre161002) {
  CallBuilder out = Valid();
  out.Zeros("out", DType::kFloat16, {2, 64});
  ExpectRejected(out, ACLNN_ERR_PARAM_INVALID, "swiglu.check.dtype");
  CallBuilder grad = Valid(DType::kBFloat16);
  grad.Zeros("yGrad", DType::kFloat32, {2, 32});
  ExpectRejected(grad, ACLNN_ERR_PARAM_INVALID, "swiglu.check.dtype");
}

TEST(SwiGluGradValidate, RankZeroOrAboveEightIs161002) {
  CallBuilder scalar(FolderOperator());
  scalar.Zeros("yGrad", DType::kFloat32, {})
      .Zeros("x", DType::kFloat32, {})
      .Zeros("out", DType::kFloat32, {})
      .Param("dim", int64_t{0});
  ExpectRejected(scalar, ACLNN_ERR_PARAM_INVALID, "swiglu.check.rank");
  CallBuilder nine = Valid(DType::kFloat32, Dims(9, 2));
  ExpectRejected(nine, ACLNN_ERR_PARAM_INVALID, "swiglu.check.rank");
}

TEST(SwiGluGradValidate, DimOutsideTheRankIs161002) {
  for (int64_t dim : {int64_t{2}, int64_t{3}, int64_t{-3}, int64_t{1} << 40}) {
    CallBuilder call = Valid();
    call.Param("dim", dim);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "swiglu.check.dim");
  }
  // The edges of [-rank, rank - 1] are accepted.
  for (int64_t dim : {-2, 1}) {
    CallBuilder call = Valid(DType::kFloat32, {4, 64}, dim);
    EXPECT_TRUE(FolderOperator().Validate(call.Args(), Product::kA2).ok()) << dim;
  }
}

TEST(SwiGluGradValidate, OddSplitIs161002EvenWhenTheTrailingProductIsEven) {
  // x = [4, 3, 2] along dim 1: 3 is odd although 3 * 2 is even (CANN's 910B tiling would split
  // the flattened block; the contract rejects it). yGrad [4, 1, 2] is the rounded-down half.
  CallBuilder call(FolderOperator());
  call.Zeros("yGrad", DType::kFloat32, {4, 1, 2})
      .Zeros("x", DType::kFloat32, {4, 3, 2})
      .Zeros("out", DType::kFloat32, {4, 3, 2})
      .Param("dim", int64_t{1});
  ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "swiglu.check.odd_split");
  CallBuilder odd = Valid(DType::kFloat32, {2, 64}, 0);
  odd.Zeros("x", DType::kFloat32, {3, 64}).Zeros("out", DType::kFloat32, {3, 64});
  ExpectRejected(odd, ACLNN_ERR_PARAM_INVALID, "swiglu.check.odd_split");
}

TEST(SwiGluGradValidate, YGradNotHalfOfXIs161002) {
  for (const Dims& shape : {Dims{2, 64}, Dims{1, 32}, Dims{2, 16}, Dims{2, 32, 1}, Dims{64}}) {
    CallBuilder call = Valid();
    call.Zeros("yGrad", DType::kFloat32, shape);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "swiglu.check.ygrad_shape");
  }
  // Halved along the wrong dim.
  CallBuilder wrong_dim = Valid(DType::kFloat32, {4, 8}, 0);
  wrong_dim.Zeros("yGrad", DType::kFloat32, {4, 4});
  ExpectRejected(wrong_dim, ACLNN_ERR_PARAM_INVALID, "swiglu.check.ygrad_shape");
}

TEST(SwiGluGradValidate, OutNotXsShapeIs161002) {
  for (const Dims& shape : {Dims{2, 32}, Dims{64, 2}, Dims{2, 64, 1}, Dims{128}}) {
    CallBuilder call = Valid();
    call.Zeros("out", DType::kFloat32, shape);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "swiglu.check.out_shape");
  }
}

TEST(SwiGluGradValidate, EmptyTensorsAre161002) {
  for (const Dims& shape : {Dims{0, 64}, Dims{2, 0}, Dims{3, 0, 4}}) {
    CallBuilder call = Valid(DType::kFloat32, shape, shape.size() == 3 ? 1 : -1);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "swiglu.check.empty");
  }
}

TEST(SwiGluGradValidate, ChecksRunInTheDocumentedOrder) {
  // Each call breaks one check and every later one; the first broken check decides.
  CallBuilder dtype = Valid();
  dtype.Zeros("out", DType::kFloat16, {5});
  dtype.Param("dim", int64_t{7});
  ExpectRejected(dtype, ACLNN_ERR_PARAM_INVALID, "swiglu.check.dtype");
  CallBuilder rank = Valid(DType::kFloat32, Dims(9, 1), 3);
  rank.Zeros("out", DType::kFloat32, {0});
  ExpectRejected(rank, ACLNN_ERR_PARAM_INVALID, "swiglu.check.rank");
  CallBuilder dim = Valid(DType::kFloat32, {3, 0});
  dim.Param("dim", int64_t{2});
  ExpectRejected(dim, ACLNN_ERR_PARAM_INVALID, "swiglu.check.dim");
  CallBuilder odd(FolderOperator());
  odd.Zeros("yGrad", DType::kFloat32, {9})
      .Zeros("x", DType::kFloat32, {3})
      .Zeros("out", DType::kFloat32, {0});
  odd.Param("dim", int64_t{0});
  ExpectRejected(odd, ACLNN_ERR_PARAM_INVALID, "swiglu.check.odd_split");
  CallBuilder ygrad = Valid(DType::kFloat32, {2, 0});
  ygrad.Zeros("yGrad", DType::kFloat32, {2, 1}).Zeros("out", DType::kFloat32, {1});
  ExpectRejected(ygrad, ACLNN_ERR_PARAM_INVALID, "swiglu.check.ygrad_shape");
  CallBuilder out = Valid(DType::kFloat32, {0, 2});
  out.Zeros("out", DType::kFloat32, {2});
  ExpectRejected(out, ACLNN_ERR_PARAM_INVALID, "swiglu.check.out_shape");
  CallBuilder empty = Valid(DType::kFloat16, {0, 2});
  ExpectRejected(empty, ACLNN_ERR_PARAM_INVALID, "swiglu.check.empty", Product::kInf);
}

TEST(SwiGluGradValidate, InferenceSeriesNeedsSixtyFourByteHalfRows) {
  // A half row is prod(x.shape[dim:]) / 2 elements: [2, 64] along -1 gives 32 elements, 64 bytes
  // in fp16 and 128 in fp32.
  for (DType dtype : {DType::kFloat16, DType::kFloat32}) {
    CallBuilder call = Valid(dtype);
    EXPECT_TRUE(FolderOperator().Validate(call.Args(), Product::kInf).ok()) << DTypeName(dtype);
  }
  // 16 fp32 elements are 64 bytes; 16 fp16 elements are only 32.
  CallBuilder fp32 = Valid(DType::kFloat32, {3, 32});
  EXPECT_TRUE(FolderOperator().Validate(fp32.Args(), Product::kInf).ok());
  CallBuilder fp16 = Valid(DType::kFloat16, {3, 32});
  ExpectRejected(fp16, ACLNN_ERR_PARAM_INVALID, "swiglu.align64", Product::kInf);
  // The half row spans the trailing dims: [5, 2, 16] along dim 1 is 16 elements per half.
  CallBuilder trailing = Valid(DType::kFloat32, {5, 2, 16}, 1);
  EXPECT_TRUE(FolderOperator().Validate(trailing.Args(), Product::kInf).ok());
  CallBuilder trailing_fp16 = Valid(DType::kFloat16, {5, 2, 16}, -2);
  ExpectRejected(trailing_fp16, ACLNN_ERR_PARAM_INVALID, "swiglu.align64", Product::kInf);
  // Along the last dim only the last dim counts: [5, 2, 16] along -1 is 8 elements.
  CallBuilder last = Valid(DType::kFloat32, {5, 2, 16}, -1);
  ExpectRejected(last, ACLNN_ERR_PARAM_INVALID, "swiglu.align64", Product::kInf);
  // The other products have no such rule.
  CallBuilder a2 = Valid(DType::kFloat16, {3, 6});
  EXPECT_TRUE(FolderOperator().Validate(a2.Args(), Product::kA2).ok());
  EXPECT_TRUE(FolderOperator().Validate(a2.Args(), Product::kA3).ok());
  ExpectRejected(a2, ACLNN_ERR_PARAM_INVALID, "swiglu.align64", Product::kInf);
}

// The case-file plan of an axis point, laid out as zero tensors.
CallBuilder FromPlan(const nlohmann::json& axes, DType dtype) {
  std::string error;
  const std::optional<CallPlan> plan = FolderOperator().def().plan(axes, dtype, &error);
  EXPECT_TRUE(plan.has_value()) << error;
  CallBuilder call(FolderOperator());
  for (size_t slot = 0; slot < plan->tensors.size(); ++slot) {
    call.Zeros(FolderOperator().tensors()[slot].name, plan->tensors[slot]->dtype,
               plan->tensors[slot]->shape);
  }
  call.Param("dim", plan->params.at(kDim));
  return call;
}

TEST(SwiGluGradValidate, PlansOfValidAxesPassAndNegativeOnesReachTheirCheck) {
  nlohmann::json defaults = nlohmann::json::object();
  for (const AxisDef& axis : FolderOperator().axes())
    defaults[axis.name] = axis.default_values->at(0);
  for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
    CallBuilder call = FromPlan(defaults, dtype);
    EXPECT_TRUE(FolderOperator().Validate(call.Args(), Product::kA2).ok()) << DTypeName(dtype);
    EXPECT_EQ(call.tensor("yGrad").view().shape, (Dims{16, 64}));
  }
  CallBuilder middle = FromPlan({{"x_shape", {3, 4, 5}}, {"dim", -2}}, DType::kFloat16);
  EXPECT_EQ(middle.tensor("yGrad").view().shape, (Dims{3, 2, 5}));
  EXPECT_EQ(middle.tensor("out").view().shape, (Dims{3, 4, 5}));
  EXPECT_TRUE(FolderOperator().Validate(middle.Args(), Product::kA3).ok());
  CallBuilder odd = FromPlan({{"x_shape", {4, 7}}, {"dim", 1}}, DType::kFloat32);
  EXPECT_EQ(odd.tensor("yGrad").view().shape, (Dims{4, 3}));
  ExpectRejected(odd, ACLNN_ERR_PARAM_INVALID, "swiglu.check.odd_split");
  CallBuilder bad_dim = FromPlan({{"x_shape", {4, 8}}, {"dim", 2}}, DType::kFloat32);
  EXPECT_EQ(bad_dim.tensor("yGrad").view().shape, (Dims{4, 8}));
  ExpectRejected(bad_dim, ACLNN_ERR_PARAM_INVALID, "swiglu.check.dim");
  CallBuilder scalar =
      FromPlan({{"x_shape", nlohmann::json::array()}, {"dim", -1}}, DType::kFloat32);
  ExpectRejected(scalar, ACLNN_ERR_PARAM_INVALID, "swiglu.check.rank");
  CallBuilder empty = FromPlan({{"x_shape", {0, 8}}, {"dim", -1}}, DType::kFloat32);
  ExpectRejected(empty, ACLNN_ERR_PARAM_INVALID, "swiglu.check.empty");
  CallBuilder unaligned = FromPlan({{"x_shape", {2, 6}}, {"dim", -1}}, DType::kFloat16);
  ExpectRejected(unaligned, ACLNN_ERR_PARAM_INVALID, "swiglu.align64", Product::kInf);
}

}  // namespace
}  // namespace aclnn_check::swi_glu_grad
