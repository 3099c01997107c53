// Every check of kernels/logit_grad/README.md with its status code and rule id, in the documented
// order.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "logit_grad/logit_grad.h"
#include "support/call_builder.h"
#include "support/operator_named.h"
#include "support/validation.h"

namespace aclnn_check::logit_grad {
namespace {

using testing::CallBuilder;
using testing::FolderOperator;

CallBuilder Valid(DType dtype = DType::kFloat32, Dims shape = {2, 3}) {
  CallBuilder call(FolderOperator());
  call.Zeros("x", dtype, shape).Zeros("dy", dtype, shape).Zeros("out", dtype, shape);
  call.Param("eps", -1.0);
  return call;
}


TEST(LogitGradValidate, AcceptsEveryDTypeOfA2AndA3RankZeroToEightAndEmpty) {
  for (Product product : {Product::kA2, Product::kA3}) {
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      for (const Dims& shape : {Dims{}, Dims{5}, Dims{1, 2, 1, 2, 1, 2, 1, 2}, Dims{3, 0}}) {
        CallBuilder call = Valid(dtype, shape);
        EXPECT_TRUE(FolderOperator().Validate(call.Args(), product).ok()) << FormatDims(shape);
      }
    }
  }
}

TEST(LogitGradValidate, EveryEpsIsAccepted) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  for (double eps : {-1.0, -kInf, 0.0, 1e-6, 0.5, 0.75, 1.0, 2.0, kInf,
                     std::numeric_limits<double>::quiet_NaN()}) {
    CallBuilder call = Valid();
    call.Param("eps", eps);
    EXPECT_TRUE(FolderOperator().Validate(call.Args(), Product::kA2).ok()) << eps;
  }
}

TEST(LogitGradValidate, NullPointersAre161001) {
  for (const char* slot : {"x", "dy", "out"}) {
    CallBuilder call = Valid();
    call.Null(slot);
    ExpectRejected(call, ACLNN_ERR_PARAM_NULLPTR, "logit.check.null");
    EXPECT_NE(FolderOperator().Validate(call.Args(), Product::kA2).message.find(slot),
              std::string::npos);
  }
  CallBuilder no_workspace = Valid();
  no_workspace.NullOutPointers(true, false);
  ExpectRejected(no_workspace, ACLNN_ERR_PARAM_NULLPTR, "logit.check.null");
  CallBuilder no_executor = Valid();
  no_executor.NullOutPointers(false, true);
  ExpectRejected(no_executor, ACLNN_ERR_PARAM_NULLPTR, "logit.check.null");
}

TEST(LogitGradValidate, NullIsReportedBeforeEveryOtherProblem) {
  // A bad shape, a mixed dtype, a dtype outside the list and rank 9, all with a null out.
  CallBuilder call(FolderOperator());
  call.Zeros("x", DType::kFloat64, Dims(9, 1)).Zeros("dy", DType::kFloat16, {3});
  call.Param("eps", -1.0);
  ExpectRejected(call, ACLNN_ERR_PARAM_NULLPTR, "logit.check.null");
  CallBuilder out_pointer = Valid();
  out_pointer.Zeros("dy", DType::kFloat16, {7});
  out_pointer.NullOutPointers(false, true);
  ExpectRejected(out_pointer, ACLNN_ERR_PARAM_NULLPTR, "logit.check.null");
}

TEST(LogitGradValidate, DTypeOutsideTheListIsTheMatrixRule) {
  CallBuilder doubles = Valid(DType::kFloat64);
  ExpectRejected(doubles, ACLNN_ERR_PARAM_INVALID, "matrix.logit.other");
  CallBuilder ints = Valid(DType::kInt32);
  ExpectRejected(ints, ACLNN_ERR_PARAM_INVALID, "matrix.logit.other", Product::kA3);
  // One tensor outside the list is the matrix rule, not the mixed-dtype rule.
  CallBuilder dy = Valid();
  dy.Zeros("dy", DType::kFloat64, {2, 3});
  ExpectRejected(dy, ACLNN_ERR_PARAM_INVALID, "matrix.logit.other");
  CallBuilder out = Valid(DType::kBFloat16);
  out.Zeros("out", DType::kInt8, {2, 3});
  ExpectRejected(out, ACLNN_ERR_PARAM_INVALID, "matrix.logit.other");
}

TEST(LogitGradValidate, UnavailableProductsRejectEveryCall) {
  for (Product product : {Product::kInf, Product::kTrain, Product::k200I}) {
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      CallBuilder call = Valid(dtype);
      ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "matrix.logit." + std::string(DTypeName(dtype)),
                     product);
    }
    // docs/contract/products.md: the null checks come first on every product, listed or not.
    for (const char* slot : {"x", "dy", "out"}) {
      CallBuilder null_call = Valid(DType::kBFloat16);
      null_call.Null(slot);
      ExpectRejected(null_call, ACLNN_ERR_PARAM_NULLPTR, "logit.check.null", product);
    }
    CallBuilder no_workspace = Valid();
    no_workspace.NullOutPointers(true, false);
    ExpectRejected(no_workspace, ACLNN_ERR_PARAM_NULLPTR, "logit.check.null", product);
  }
  for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
    const RuleDef* rule =
        FolderOperator().FindRule("matrix.logit." + std::string(DTypeName(dtype)));
    ASSERT_NE(rule, nullptr);
    EXPECT_EQ(rule->condition, "product is INF, TRAIN, 200I");
  }
}

TEST(LogitGradValidate, MixedDTypesAre161002) {
  CallBuilder out = Valid();
  out.Zeros("out", DType::kFloat16, {2, 3});
  ExpectRejected(out, ACLNN_ERR_PARAM_INVALID, "logit.check.dtype");
  CallBuilder dy = Valid(DType::kFloat16);
  dy.Zeros("dy", DType::kBFloat16, {2, 3});
  ExpectRejected(dy, ACLNN_ERR_PARAM_INVALID, "logit.check.dtype");
  CallBuilder x = Valid(DType::kBFloat16);
  x.Zeros("x", DType::kFloat32, {2, 3});
  ExpectRejected(x, ACLNN_ERR_PARAM_INVALID, "logit.check.dtype");
}

TEST(LogitGradValidate, DTypeIsCheckedBeforeRankAndRankBeforeShape) {
  CallBuilder dtype_and_rank = Valid(DType::kFloat32, Dims(9, 1));
  dtype_and_rank.Zeros("dy", DType::kFloat16, Dims(9, 1));
  ExpectRejected(dtype_and_rank, ACLNN_ERR_PARAM_INVALID, "logit.check.dtype");
  CallBuilder rank_and_shape = Valid(DType::kFloat32, Dims(9, 1));
  rank_and_shape.Zeros("out", DType::kFloat32, {4});
  ExpectRejected(rank_and_shape, ACLNN_ERR_PARAM_INVALID, "logit.check.rank");
}

TEST(LogitGradValidate, RankAboveEightIs161002) {
  const Dims nine(9, 1);
  CallBuilder all = Valid(DType::kFloat32, nine);
  ExpectRejected(all, ACLNN_ERR_PARAM_INVALID, "logit.check.rank");
  CallBuilder dy_only = Valid();
  dy_only.Zeros("dy", DType::kFloat32, Dims(10, 1));
  ExpectRejected(dy_only, ACLNN_ERR_PARAM_INVALID, "logit.check.rank");
}

TEST(LogitGradValidate, ShapeMismatchIs161002) {
  CallBuilder dy = Valid();
  dy.Zeros("dy", DType::kFloat32, {3, 2});
  ExpectRejected(dy, ACLNN_ERR_PARAM_INVALID, "logit.check.shape");
  CallBuilder out = Valid();
  out.Zeros("out", DType::kFloat32, {2, 3, 1});
  ExpectRejected(out, ACLNN_ERR_PARAM_INVALID, "logit.check.shape");
  CallBuilder broadcast = Valid();
  broadcast.Zeros("dy", DType::kFloat32, {1, 3});
  ExpectRejected(broadcast, ACLNN_ERR_PARAM_INVALID, "logit.check.shape");
  CallBuilder scalar = Valid();
  scalar.Zeros("out", DType::kFloat32, {});
  ExpectRejected(scalar, ACLNN_ERR_PARAM_INVALID, "logit.check.shape");
}

TEST(LogitGradValidate, EveryCheckIsAStatusRuleOfTheDescription) {
  for (const auto& [id, status] : {std::pair{"logit.check.null", ACLNN_ERR_PARAM_NULLPTR},
                                   std::pair{"logit.check.dtype", ACLNN_ERR_PARAM_INVALID},
                                   std::pair{"logit.check.rank", ACLNN_ERR_PARAM_INVALID},
                                   std::pair{"logit.check.shape", ACLNN_ERR_PARAM_INVALID}}) {
    const RuleDef* rule = FolderOperator().FindRule(id);
    ASSERT_NE(rule, nullptr) << id;
    EXPECT_EQ(rule->kind, "status");
    EXPECT_EQ(rule->status, status) << id;
  }
}

// Case-file planning: every tensor gets the shape axis and the dtype, eps comes from its axis, and
// invalid combinations are planned so that the validation rejects them.
TEST(LogitGradPlan, EveryTensorHasTheShapeAndTheDTypeAndEpsIsTheParameter) {
  std::string error;
  const auto plan =
      FolderOperator().def().plan({{"shape", {3, 5}}, {"eps", 0.25}}, DType::kBFloat16, &error);
  ASSERT_TRUE(plan) << error;
  ASSERT_EQ(plan->tensors.size(), 3u);
  for (const auto& tensor : plan->tensors) {
    ASSERT_TRUE(tensor);
    EXPECT_EQ(tensor->dtype, DType::kBFloat16);
    EXPECT_EQ(tensor->shape, (Dims{3, 5}));
  }
  ASSERT_EQ(plan->params.size(), 1u);
  EXPECT_EQ(std::get<double>(plan->params[kEps]), 0.25);
}

TEST(LogitGradPlan, EpsStringsAreInfinitiesAndNaN) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::string error;
  for (const auto& [text, check] :
       {std::pair<const char*, bool (*)(double)>{"inf", [](double v) { return v == kInf; }},
        {"-inf", [](double v) { return v == -kInf; }},
        {"nan", [](double v) { return std::isnan(v); }}}) {
    const auto plan =
        FolderOperator().def().plan({{"shape", {2}}, {"eps", text}}, DType::kFloat32, &error);
    ASSERT_TRUE(plan) << text;
    EXPECT_TRUE(check(std::get<double>(plan->params[kEps]))) << text;
  }
  EXPECT_FALSE(
      FolderOperator().def().plan({{"shape", {2}}, {"eps", "tiny"}}, DType::kFloat32, &error));
  EXPECT_NE(error.find("eps"), std::string::npos);
}

TEST(LogitGradPlan, InvalidCombinationsArePlannedAndRejectedByValidation) {
  std::string error;
  const auto plan =
      FolderOperator().def().plan({{"shape", Dims(9, 1)}, {"eps", -1}}, DType::kFloat32, &error);
  ASSERT_TRUE(plan) << error;
  CallBuilder call(FolderOperator());
  for (size_t slot = 0; slot < plan->tensors.size(); ++slot) {
    call.Zeros(FolderOperator().tensors()[slot].name, plan->tensors[slot]->dtype,
               plan->tensors[slot]->shape);
  }
  call.Param("eps", plan->params[kEps]);
  ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "logit.check.rank");
  const auto doubles =
      FolderOperator().def().plan({{"shape", {4}}, {"eps", -1}}, DType::kFloat64, &error);
  ASSERT_TRUE(doubles) << error;
  EXPECT_EQ(doubles->tensors[kOut]->dtype, DType::kFloat64);
}

}  // namespace
}  // namespace aclnn_check::logit_grad
