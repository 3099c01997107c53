// Every check of kernels/layer_norm_backward/README.md with its status code and rule id, in the
// documented order; the product matrix; and the case plan's calls, valid and invalid.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "layer_norm_backward/layer_norm_backward.h"
#include "support/call_builder.h"
#include "support/operator_named.h"
#include "support/validation.h"

namespace aclnn_check::layer_norm_backward {
namespace {

using testing::CallBuilder;

constexpr DType kF32 = DType::kFloat32;
constexpr DType kF16 = DType::kFloat16;
constexpr DType kBF16 = DType::kBFloat16;

using testing::FolderOperator;

// input [2, 3, 4] normalized over the last dim: R = 6, M = 4.
CallBuilder Valid(DType dtype = kF32, DType stat = kF32, DType param = kF32) {
  CallBuilder call(FolderOperator());
  call.Zeros("gradOut", dtype, {2, 3, 4})
      .Zeros("input", dtype, {2, 3, 4})
      .Zeros("mean", stat, {2, 3, 1})
      .Zeros("rstd", stat, {2, 3, 1})
      .Zeros("weight", param, {4})
      .Zeros("bias", param, {4})
      .Zeros("gradInput", dtype, {2, 3, 4})
      .Zeros("gradWeight", param, {4})
      .Zeros("gradBias", param, {4})
      .Param("normalizedShape", Dims{4})
      .Param("outputMask", std::vector<bool>{true, true, true});
  return call;
}

void ExpectAccepted(CallBuilder& call, Product product = Product::kA2) {
  const CheckOutcome outcome = FolderOperator().Validate(call.Args(), product);
  EXPECT_TRUE(outcome.ok()) << outcome.rule << ": " << outcome.message;
}


TEST(LayerNormBackwardValidate, AcceptsEveryDTypeCombinationOfTheSeed) {
  for (DType dtype : {kF32, kF16, kBF16}) {
    for (DType stat : {kF32, dtype}) {
      for (DType param : {kF32, dtype}) {
        CallBuilder call = Valid(dtype, stat, param);
        ExpectAccepted(call);
        ExpectAccepted(call, Product::kA3);
        if (dtype != kBF16) ExpectAccepted(call, Product::kInf);
        if (dtype != kBF16) ExpectAccepted(call, Product::kTrain);
      }
    }
    // mean and rstd each on its own; bias and the outputs any dtype of the product.
    CallBuilder mixed = Valid(dtype);
    mixed.Zeros("rstd", dtype, {2, 3, 1})
        .Zeros("bias", kBF16, {4})
        .Zeros("gradInput", kF16, {2, 3, 4})
        .Zeros("gradWeight", kBF16, {4})
        .Zeros("gradBias", kF16, {4});
    ExpectAccepted(mixed);
  }
}

TEST(LayerNormBackwardValidate, AcceptsEveryShapeOfSpec) {
  CallBuilder no_weight = Valid();
  no_weight.Null("weight").Null("bias");
  ExpectAccepted(no_weight);
  CallBuilder k3 = Valid();
  k3.Zeros("mean", kF32, {1, 1, 1})
      .Zeros("rstd", kF32, {1, 1, 1})
      .Zeros("weight", kF32, {2, 3, 4})
      .Zeros("bias", kF32, {2, 3, 4})
      .Zeros("gradWeight", kF32, {2, 3, 4})
      .Zeros("gradBias", kF32, {2, 3, 4})
      .Param("normalizedShape", Dims{2, 3, 4});
  ExpectAccepted(k3);
  // mean/rstd of any rank 0..8 holding R elements.
  for (const Dims& stat : {Dims{6}, Dims{6, 1}, Dims{3, 2}, Dims{1, 1, 1, 1, 1, 1, 2, 3}}) {
    CallBuilder call = Valid();
    call.Zeros("mean", kF32, stat).Zeros("rstd", kF32, stat);
    ExpectAccepted(call);
  }
  CallBuilder one_row = Valid();
  one_row.Zeros("gradOut", kF32, {4})
      .Zeros("input", kF32, {4})
      .Zeros("gradInput", kF32, {4})
      .Zeros("mean", kF32, {})
      .Zeros("rstd", kF32, {});
  ExpectAccepted(one_row);
  const Dims eight{1, 2, 1, 2, 1, 2, 1, 4};
  CallBuilder rank8 = Valid();
  rank8.Zeros("gradOut", kF32, eight)
      .Zeros("input", kF32, eight)
      .Zeros("gradInput", kF32, eight)
      .Zeros("mean", kF32, {1, 2, 1, 2, 1, 2, 1, 1})
      .Zeros("rstd", kF32, {1, 2, 1, 2, 1, 2, 1, 1});
  ExpectAccepted(rank8);
  // Empty: no rows, or an empty normalized shape.
  CallBuilder no_rows = Valid();
  no_rows.Zeros("gradOut", kF32, {0, 4})
      .Zeros("input", kF32, {0, 4})
      .Zeros("gradInput", kF32, {0, 4})
      .Zeros("mean", kF32, {0})
      .Zeros("rstd", kF32, {0});
  ExpectAccepted(no_rows);
  CallBuilder no_columns = Valid();
  no_columns.Zeros("gradOut", kF32, {2, 3, 0})
      .Zeros("input", kF32, {2, 3, 0})
      .Zeros("gradInput", kF32, {2, 3, 0})
      .Zeros("weight", kF32, {0})
      .Zeros("bias", kF32, {0})
      .Zeros("gradWeight", kF32, {0})
      .Zeros("gradBias", kF32, {0})
      .Param("normalizedShape", Dims{0});
  ExpectAccepted(no_columns);
}

TEST(LayerNormBackwardValidate, MaskedOffOutputsMayBeNullAndAreNeverShapeChecked) {
  for (int bits = 0; bits < 8; ++bits) {
    const std::vector<bool> mask = {(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0};
    CallBuilder nulls = Valid();
    nulls.Param("outputMask", mask);
    CallBuilder wrong = Valid();
    wrong.Param("outputMask", mask);
    for (size_t i = 0; i < 3; ++i) {
      if (mask[i]) continue;
      nulls.Null(FolderOperator().tensors()[kOutputs[i]].name);
      wrong.Zeros(FolderOperator().tensors()[kOutputs[i]].name, kF32, Dims(9, 1));  // even rank 9
    }
    ExpectAccepted(nulls);
    ExpectAccepted(wrong);
  }
}

TEST(LayerNormBackwardValidate, NullPointersAre161001) {
  for (const char* slot : {"gradOut", "input", "mean", "rstd"}) {
    CallBuilder call = Valid();
    call.Null(slot);
    ExpectRejected(call, ACLNN_ERR_PARAM_NULLPTR, "layernorm.check.null");
  }
  for (const char* param : {"normalizedShape", "outputMask"}) {
    CallBuilder call = Valid();
    call.Param(param, std::monostate{});
    ExpectRejected(call, ACLNN_ERR_PARAM_NULLPTR, "layernorm.check.null");
  }
  CallBuilder no_workspace = Valid();
  no_workspace.NullOutPointers(true, false);
  ExpectRejected(no_workspace, ACLNN_ERR_PARAM_NULLPTR, "layernorm.check.null");
  CallBuilder no_executor = Valid();
  no_executor.NullOutPointers(false, true);
  ExpectRejected(no_executor, ACLNN_ERR_PARAM_NULLPTR, "layernorm.check.null");
}

TEST(LayerNormBackwardValidate, NullIsReportedBeforeEveryOtherProblem) {
  CallBuilder call = Valid(kF32, DType::kInt32);
  call.Param("outputMask", std::vector<bool>{true}).Null("gradWeight").Null("rstd");
  call.Zeros("gradOut", kF16, {9});
  ExpectRejected(call, ACLNN_ERR_PARAM_NULLPTR, "layernorm.check.null");
}

TEST(LayerNormBackwardValidate, MaskOfAnotherLengthIs161002EvenBeforeANullOutput) {
  for (const std::vector<bool>& mask :
       {std::vector<bool>{}, std::vector<bool>{true, true}, std::vector<bool>(4, true)}) {
    CallBuilder call = Valid();
    call.Param("outputMask", mask);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "layernorm.check.mask_length");
  }
  CallBuilder call = Valid();
  call.Param("outputMask", std::vector<bool>{true, true}).Null("gradInput").Null("gradBias");
  ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "layernorm.check.mask_length");
}

TEST(LayerNormBackwardValidate, SelectedOutputThatIsNullIs161001BeforeDTypes) {
  for (const char* slot : {"gradInput", "gradWeight", "gradBias"}) {
    CallBuilder call = Valid();
    call.Null(slot).Zeros("mean", DType::kInt32, {2, 3, 1});
    ExpectRejected(call, ACLNN_ERR_PARAM_NULLPTR, "layernorm.check.mask_output_null");
  }
}

TEST(LayerNormBackwardValidate, DTypeOutsideTheProductListIsTheMatrixRule) {
  CallBuilder bf16 = Valid(kBF16);
  ExpectRejected(bf16, ACLNN_ERR_PARAM_INVALID, "matrix.layernorm.bfloat16", Product::kTrain);
  ExpectRejected(bf16, ACLNN_ERR_PARAM_INVALID, "matrix.layernorm.bfloat16", Product::kInf);
  CallBuilder doubles = Valid(DType::kFloat64);
  ExpectRejected(doubles, ACLNN_ERR_PARAM_INVALID, "matrix.layernorm.other");
  // Each tensor is checked against the list on its own.
  const std::pair<const char*, Dims> slots[] = {
      {"mean", {2, 3, 1}},      {"rstd", {2, 3, 1}}, {"weight", {4}},  {"bias", {4}},
      {"gradInput", {2, 3, 4}}, {"gradWeight", {4}}, {"gradBias", {4}}};
  for (const auto& [slot, shape] : slots) {
    CallBuilder call = Valid(kF16);
    call.Zeros(slot, kBF16, shape);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "matrix.layernorm.bfloat16", Product::kTrain);
    CallBuilder ints = Valid();
    ints.Zeros(slot, DType::kInt32, shape);
    ExpectRejected(ints, ACLNN_ERR_PARAM_INVALID, "matrix.layernorm.other");
  }
  // A masked-off output that is given is dtype-checked too (README: as CANN's CheckDtype).
  CallBuilder masked = Valid();
  masked.Param("outputMask", std::vector<bool>{true, false, true})
      .Zeros("gradWeight", DType::kInt8, {4});
  ExpectRejected(masked, ACLNN_ERR_PARAM_INVALID, "matrix.layernorm.other");
}

TEST(LayerNormBackwardValidate, UnavailableProductRejectsEveryCall) {
  CallBuilder call = Valid();
  ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "matrix.layernorm.float32", Product::k200I);
  CallBuilder fp16 = Valid(kF16);
  ExpectRejected(fp16, ACLNN_ERR_PARAM_INVALID, "matrix.layernorm.float16", Product::k200I);
  // docs/contract/products.md: the null checks come first on every product, listed or not;
  // kernels/layer_norm_backward/README.md's order holds there too (a mask of the wrong length
  // before a selected output that is null).
  CallBuilder null_call = Valid();
  null_call.Null("input");
  ExpectRejected(null_call, ACLNN_ERR_PARAM_NULLPTR, "layernorm.check.null", Product::k200I);
  CallBuilder null_mask = Valid();
  null_mask.Param("outputMask", std::monostate{});
  ExpectRejected(null_mask, ACLNN_ERR_PARAM_NULLPTR, "layernorm.check.null", Product::k200I);
  CallBuilder null_output = Valid();
  null_output.Null("gradWeight");
  ExpectRejected(null_output, ACLNN_ERR_PARAM_NULLPTR, "layernorm.check.mask_output_null",
                 Product::k200I);
  null_output.Param("outputMask", std::vector<bool>{true, true});
  ExpectRejected(null_output, ACLNN_ERR_PARAM_INVALID, "layernorm.check.mask_length",
                 Product::k200I);
}

TEST(LayerNormBackwardValidate, GradOutDTypeMustBeTheInputDType) {
  CallBuilder call = Valid(kF16);
  call.Zeros("gradOut", kBF16, {2, 3, 4});
  ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "layernorm.check.grad_out_dtype");
  CallBuilder wider = Valid(kF16);
  wider.Zeros("gradOut", kF32, {2, 3, 4});
  ExpectRejected(wider, ACLNN_ERR_PARAM_INVALID, "layernorm.check.grad_out_dtype");
}

TEST(LayerNormBackwardValidate, StatisticsAreFloat32OrTheInputDType) {
  for (const char* slot : {"mean", "rstd"}) {
    CallBuilder call = Valid(kBF16);
    call.Zeros(slot, kF16, {2, 3, 1});
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "layernorm.check.stat_dtype");
    CallBuilder narrower = Valid(kF32);
    narrower.Zeros(slot, kF16, {2, 3, 1});
    ExpectRejected(narrower, ACLNN_ERR_PARAM_INVALID, "layernorm.check.stat_dtype");
  }
}

TEST(LayerNormBackwardValidate, WeightIsFloat32OrTheInputDType) {
  CallBuilder call = Valid(kF16);
  call.Zeros("weight", kBF16, {4});
  ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "layernorm.check.weight_dtype");
  CallBuilder narrower = Valid(kF32);
  narrower.Zeros("weight", kF16, {4});
  ExpectRejected(narrower, ACLNN_ERR_PARAM_INVALID, "layernorm.check.weight_dtype");
}

TEST(LayerNormBackwardValidate, DTypesAreCheckedBeforeShapes) {
  CallBuilder call = Valid(kF16);
  call.Zeros("gradOut", kF32, {9}).Zeros("weight", kF16, {7});
  ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "layernorm.check.grad_out_dtype");
  CallBuilder stat = Valid(kF32);
  stat.Zeros("mean", kF16, {5}).Param("normalizedShape", Dims{});
  ExpectRejected(stat, ACLNN_ERR_PARAM_INVALID, "layernorm.check.stat_dtype");
}

TEST(LayerNormBackwardValidate, RanksOutsideTheirRangeAre161002) {
  const Dims nine(9, 1);
  CallBuilder input = Valid();
  input.Zeros("input", kF32, nine).Zeros("gradOut", kF32, nine);
  ExpectRejected(input, ACLNN_ERR_PARAM_INVALID, "layernorm.check.rank");
  CallBuilder grad = Valid();
  grad.Zeros("gradOut", kF32, nine);
  ExpectRejected(grad, ACLNN_ERR_PARAM_INVALID, "layernorm.check.rank");
  CallBuilder scalar = Valid();
  scalar.Zeros("input", kF32, {}).Zeros("gradOut", kF32, {});
  ExpectRejected(scalar, ACLNN_ERR_PARAM_INVALID, "layernorm.check.rank");
  for (const char* slot : {"mean", "rstd"}) {
    CallBuilder call = Valid();
    call.Zeros(slot, kF32, {1, 1, 1, 1, 1, 1, 1, 2, 3});
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "layernorm.check.rank");
  }
  for (const char* slot : {"gradInput", "gradWeight", "gradBias"}) {
    CallBuilder call = Valid();
    call.Zeros(slot, kF32, nine);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "layernorm.check.rank");
  }
}

TEST(LayerNormBackwardValidate, NormalizedShapeLengthOneToTheRank) {
  CallBuilder none = Valid();
  none.Param("normalizedShape", Dims{});
  ExpectRejected(none, ACLNN_ERR_PARAM_INVALID, "layernorm.check.normalized_rank");
  CallBuilder too_long = Valid();
  too_long.Param("normalizedShape", Dims{1, 2, 3, 4});
  ExpectRejected(too_long, ACLNN_ERR_PARAM_INVALID, "layernorm.check.normalized_rank");
}

TEST(LayerNormBackwardValidate, NormalizedShapeMustBeTheTrailingDims) {
  CallBuilder last = Valid();
  last.Param("normalizedShape", Dims{5});
  ExpectRejected(last, ACLNN_ERR_PARAM_INVALID, "layernorm.check.trailing_dims");
  // The first of two dims differs: CANN's loop would skip it, the contract compares every dim.
  CallBuilder first = Valid();
  first.Param("normalizedShape", Dims{2, 4})
      .Zeros("weight", kF32, {2, 4})
      .Zeros("bias", kF32, {2, 4})
      .Zeros("gradWeight", kF32, {2, 4})
      .Zeros("gradBias", kF32, {2, 4});
  ExpectRejected(first, ACLNN_ERR_PARAM_INVALID, "layernorm.check.trailing_dims");
  CallBuilder negative = Valid();
  negative.Param("normalizedShape", Dims{-4});
  ExpectRejected(negative, ACLNN_ERR_PARAM_INVALID, "layernorm.check.trailing_dims");
}

TEST(LayerNormBackwardValidate, WeightAndBiasHaveTheNormalizedShape) {
  for (const Dims& shape : {Dims{5}, Dims{1, 4}, Dims{}, Dims(9, 1)}) {
    CallBuilder weight = Valid();
    weight.Zeros("weight", kF32, shape);
    ExpectRejected(weight, ACLNN_ERR_PARAM_INVALID, "layernorm.check.weight_shape");
    CallBuilder bias = Valid();
    bias.Zeros("bias", kF32, shape);
    ExpectRejected(bias, ACLNN_ERR_PARAM_INVALID, "layernorm.check.bias_shape");
  }
}

TEST(LayerNormBackwardValidate, GradOutHasTheInputShape) {
  for (const Dims& shape : {Dims{3, 2, 4}, Dims{6, 4}, Dims{1, 3, 4}}) {
    CallBuilder call = Valid();
    call.Zeros("gradOut", kF32, shape);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "layernorm.check.grad_out_shape");
  }
}

TEST(LayerNormBackwardValidate, MeanAndRstdShareOneShapeOfRElements) {
  CallBuilder shapes = Valid();
  shapes.Zeros("rstd", kF32, {6});
  ExpectRejected(shapes, ACLNN_ERR_PARAM_INVALID, "layernorm.check.stat_shape");
  for (const Dims& stat : {Dims{2, 4}, Dims{2, 3, 4}, Dims{}, Dims{0}}) {
    CallBuilder call = Valid();
    call.Zeros("mean", kF32, stat).Zeros("rstd", kF32, stat);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "layernorm.check.stat_numel");
  }
}

TEST(LayerNormBackwardValidate, SelectedOutputsHaveTheirShapes) {
  const std::pair<const char*, Dims> wrong[] = {{"gradInput", {2, 3, 5}}, {"gradInput", {6, 4}},
                                                {"gradWeight", {1, 4}},   {"gradWeight", {5}},
                                                {"gradBias", {4, 1}},     {"gradBias", {}}};
  for (const auto& [slot, shape] : wrong) {
    CallBuilder call = Valid();
    call.Zeros(slot, kF32, shape);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "layernorm.check.output_shape");
  }
}

TEST(LayerNormBackwardValidate, ShapeChecksRunInTheDocumentedOrder) {
  // Each call breaks two checks; the earlier one in kernels/layer_norm_backward/README.md's list is
  // reported.
  CallBuilder a = Valid();
  a.Zeros("mean", kF32, Dims(9, 1)).Param("normalizedShape", Dims{});
  ExpectRejected(a, ACLNN_ERR_PARAM_INVALID, "layernorm.check.rank");
  CallBuilder b = Valid();
  b.Param("normalizedShape", Dims{1, 2, 3, 4}).Zeros("gradOut", kF32, {1});
  ExpectRejected(b, ACLNN_ERR_PARAM_INVALID, "layernorm.check.normalized_rank");
  CallBuilder c = Valid();
  c.Param("normalizedShape", Dims{5}).Zeros("weight", kF32, {7});
  ExpectRejected(c, ACLNN_ERR_PARAM_INVALID, "layernorm.check.trailing_dims");
  CallBuilder d = Valid();
  d.Zeros("weight", kF32, {7}).Zeros("bias", kF32, {7});
  ExpectRejected(d, ACLNN_ERR_PARAM_INVALID, "layernorm.check.weight_shape");
  CallBuilder e = Valid();
  e.Zeros("bias", kF32, {7}).Zeros("gradOut", kF32, {3, 2, 4});
  ExpectRejected(e, ACLNN_ERR_PARAM_INVALID, "layernorm.check.bias_shape");
  CallBuilder f = Valid();
  f.Zeros("gradOut", kF32, {3, 2, 4}).Zeros("rstd", kF32, {6});
  ExpectRejected(f, ACLNN_ERR_PARAM_INVALID, "layernorm.check.grad_out_shape");
  CallBuilder g = Valid();
  g.Zeros("rstd", kF32, {7}).Zeros("gradInput", kF32, {1});
  ExpectRejected(g, ACLNN_ERR_PARAM_INVALID, "layernorm.check.stat_shape");
  CallBuilder h = Valid();
  h.Zeros("mean", kF32, {7}).Zeros("rstd", kF32, {7}).Zeros("gradBias", kF32, {1});
  ExpectRejected(h, ACLNN_ERR_PARAM_INVALID, "layernorm.check.stat_numel");
}

// The case plan: the default axes and variations of them, turned into calls and validated.
nlohmann::json DefaultAxes() {
  nlohmann::json axes = nlohmann::json::object();
  for (const AxisDef& axis : FolderOperator().axes()) axes[axis.name] = axis.default_values->at(0);
  return axes;
}

CallBuilder FromPlan(const CallPlan& plan) {
  CallBuilder call(FolderOperator());
  for (size_t slot = 0; slot < plan.tensors.size(); ++slot) {
    if (plan.tensors[slot]) {
      call.Zeros(FolderOperator().tensors()[slot].name, plan.tensors[slot]->dtype,
                 plan.tensors[slot]->shape);
    }
  }
  for (size_t i = 0; i < plan.params.size(); ++i)
    call.Param(FolderOperator().params()[i].name, plan.params[i]);
  return call;
}

CheckOutcome ValidatePlan(const nlohmann::json& axes, DType dtype, Product product = Product::kA2) {
  std::string error;
  const std::optional<CallPlan> plan = FolderOperator().def().plan(axes, dtype, &error);
  EXPECT_TRUE(plan.has_value()) << error;
  if (!plan) return {};
  CallBuilder call = FromPlan(*plan);
  return FolderOperator().Validate(call.Args(), product);
}

TEST(LayerNormBackwardPlan, DefaultAxesDescribeTheSeedsCall) {
  std::string error;
  const std::optional<CallPlan> plan = FolderOperator().def().plan(DefaultAxes(), kF16, &error);
  ASSERT_TRUE(plan.has_value()) << error;
  ASSERT_EQ(plan->tensors.size(), 9u);
  EXPECT_EQ(plan->tensors[kInput]->shape, (Dims{16, 256}));
  EXPECT_EQ(plan->tensors[kInput]->dtype, kF16);
  EXPECT_EQ(plan->tensors[kGradOut]->dtype, kF16);
  EXPECT_EQ(plan->tensors[kMean]->shape, (Dims{16, 1}));
  EXPECT_EQ(plan->tensors[kMean]->dtype, kF32);
  EXPECT_EQ(plan->tensors[kRstd]->shape, (Dims{16, 1}));
  EXPECT_EQ(plan->tensors[kWeight]->shape, (Dims{256}));
  EXPECT_EQ(plan->tensors[kWeight]->dtype, kF32);
  EXPECT_EQ(plan->tensors[kGradInput]->dtype, kF16);
  EXPECT_EQ(plan->tensors[kGradWeight]->dtype, kF32);
  EXPECT_EQ(plan->tensors[kGradBias]->shape, (Dims{256}));
  EXPECT_EQ(std::get<std::vector<int64_t>>(plan->params[kNormalizedShape]), (Dims{256}));
  EXPECT_EQ(std::get<std::vector<bool>>(plan->params[kOutputMask]),
            (std::vector<bool>{true, true, true}));
}

TEST(LayerNormBackwardPlan, ValidAxisCombinationsPassValidation) {
  for (DType dtype : {kF32, kF16, kBF16}) {
    for (const char* weight : {"given", "none"}) {
      for (const char* same : {"float32", "same"}) {
        nlohmann::json axes = DefaultAxes();
        axes["input_shape"] = Dims{2, 3, 5, 7};
        axes["normalized_rank"] = 2;
        axes["weight"] = weight;
        axes["bias"] = weight;
        axes["stat_dtype"] = same;
        axes["param_dtype"] = same;
        axes["output_mask"] = std::vector<bool>{true, false, true};
        const CheckOutcome outcome = ValidatePlan(axes, dtype);
        EXPECT_TRUE(outcome.ok()) << outcome.rule << ": " << outcome.message;
      }
    }
  }
  nlohmann::json whole = DefaultAxes();
  whole["input_shape"] = Dims{3, 4};
  whole["normalized_rank"] = 2;  // one row, mean [1, 1]
  EXPECT_TRUE(ValidatePlan(whole, kF32).ok());
}

TEST(LayerNormBackwardPlan, InvalidAxisCombinationsAreRejectedByTheirChecks) {
  nlohmann::json k0 = DefaultAxes();
  k0["normalized_rank"] = 0;
  EXPECT_EQ(ValidatePlan(k0, kF32).rule, "layernorm.check.normalized_rank");
  nlohmann::json k3 = DefaultAxes();
  k3["normalized_rank"] = 3;  // beyond the rank of [16, 256]
  EXPECT_EQ(ValidatePlan(k3, kF32).rule, "layernorm.check.normalized_rank");
  nlohmann::json mask = DefaultAxes();
  mask["output_mask"] = std::vector<bool>{true, true};
  EXPECT_EQ(ValidatePlan(mask, kF32).rule, "layernorm.check.mask_length");
  EXPECT_EQ(ValidatePlan(DefaultAxes(), kBF16, Product::kTrain).rule, "matrix.layernorm.bfloat16");
  EXPECT_EQ(ValidatePlan(DefaultAxes(), kF32, Product::k200I).status, ACLNN_ERR_PARAM_INVALID);
  nlohmann::json rank9 = DefaultAxes();
  rank9["input_shape"] = Dims(9, 2);
  EXPECT_EQ(ValidatePlan(rank9, kF32).rule, "layernorm.check.rank");
}

TEST(LayerNormBackwardPlan, NegativeNormalizedRankCannotBeExpressed) {
  nlohmann::json axes = DefaultAxes();
  axes["normalized_rank"] = -1;
  std::string error;
  EXPECT_FALSE(FolderOperator().def().plan(axes, kF32, &error).has_value());
  EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace aclnn_check::layer_norm_backward
