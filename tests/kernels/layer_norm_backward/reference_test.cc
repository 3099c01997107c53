// The float64 reference against a forward layer norm written here (mean and rstd recomputed from
// x inside the forward, as the backward formula assumes), differentiated numerically; against
// small cases computed by hand; and against every rule row of
// kernels/layer_norm_backward/README.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "layer_norm_backward/layer_norm_backward.h"
#include "support/call_builder.h"
#include "support/operator_named.h"

namespace aclnn_check::layer_norm_backward {
namespace {

using testing::CallBuilder;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kEps = 1e-5;

using testing::FolderOperator;

struct Problem {
  DType dtype = DType::kFloat32;
  DType stat_dtype = DType::kFloat32;
  DType param_dtype = DType::kFloat32;  // weight, bias, gradWeight, gradBias
  Dims shape;
  int64_t k = 1;
  std::vector<double> grad, x, mean, rstd;
  std::optional<std::vector<double>> weight, bias;
  std::vector<bool> mask = {true, true, true};
  Layout layout;
  std::optional<Dims> stat_shape;  // default: leading dims followed by k ones

  Dims Normalized() const { return Dims(shape.end() - k, shape.end()); }
  Dims StatShape() const {
    if (stat_shape) return *stat_shape;
    Dims dims(shape.begin(), shape.end() - k);
    dims.insert(dims.end(), static_cast<size_t>(k), 1);
    return dims;
  }
  int64_t Rows() const { return NumElements(Dims(shape.begin(), shape.end() - k)); }
  int64_t RowSize() const { return NumElements(Normalized()); }

  CallBuilder Build() const {
    CallBuilder call(FolderOperator());
    call.Tensor("gradOut", dtype, shape, grad, layout)
        .Tensor("input", dtype, shape, x, layout)
        .Tensor("mean", stat_dtype, StatShape(), mean, layout)
        .Tensor("rstd", stat_dtype, StatShape(), rstd, layout)
        .Param("normalizedShape", Normalized())
        .Param("outputMask", mask);
    if (weight) call.Tensor("weight", param_dtype, Normalized(), *weight, layout);
    if (bias) call.Tensor("bias", param_dtype, Normalized(), *bias, layout);
    if (mask[0]) call.Zeros("gradInput", dtype, shape);
    if (mask[1]) call.Zeros("gradWeight", param_dtype, Normalized());
    if (mask[2]) call.Zeros("gradBias", param_dtype, Normalized());
    return call;
  }
  ReferenceResult Run() const {
    CallBuilder call = Build();
    return FolderOperator().Reference(call.Args());
  }
};

// Forward layer norm in double, statistics recomputed from x: loss = sum(grad * y).
double ForwardLoss(const std::vector<double>& grad, const std::vector<double>& x,
                   const std::vector<double>& w, const std::vector<double>& b, int64_t rows,
                   int64_t m) {
  double loss = 0;
  for (int64_t r = 0; r < rows; ++r) {
    double mu = 0, var = 0;
    for (int64_t j = 0; j < m; ++j) mu += x[r * m + j];
    mu /= static_cast<double>(m);
    for (int64_t j = 0; j < m; ++j) var += (x[r * m + j] - mu) * (x[r * m + j] - mu);
    var /= static_cast<double>(m);
    const double rs = 1 / std::sqrt(var + kEps);
    for (int64_t j = 0; j < m; ++j) {
      loss += grad[r * m + j] * ((x[r * m + j] - mu) * rs * w[j] + b[j]);
    }
  }
  return loss;
}

void ForwardStats(const std::vector<double>& x, int64_t rows, int64_t m, std::vector<double>* mean,
                  std::vector<double>* rstd) {
  mean->assign(static_cast<size_t>(rows), 0);
  rstd->assign(static_cast<size_t>(rows), 0);
  for (int64_t r = 0; r < rows; ++r) {
    double mu = 0, var = 0;
    for (int64_t j = 0; j < m; ++j) mu += x[r * m + j];
    mu /= static_cast<double>(m);
    for (int64_t j = 0; j < m; ++j) var += (x[r * m + j] - mu) * (x[r * m + j] - mu);
    (*mean)[r] = mu;
    (*rstd)[r] = 1 / std::sqrt(var / static_cast<double>(m) + kEps);
  }
}

// Float64 tensors so that the statistics reach the reference unrounded (the reference reads any
// dtype; validation is not involved here).
Problem RandomProblem(Dims shape, int64_t k, bool with_weight, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal(0, 1);
  Problem p;
  p.dtype = p.stat_dtype = p.param_dtype = DType::kFloat64;
  p.shape = std::move(shape);
  p.k = k;
  const int64_t n = NumElements(p.shape);
  for (int64_t i = 0; i < n; ++i) {
    p.grad.push_back(normal(random));
    p.x.push_back(1.5 + 2 * normal(random));
  }
  if (with_weight) {
    p.weight.emplace();
    for (int64_t j = 0; j < p.RowSize(); ++j) p.weight->push_back(0.5 + normal(random));
  }
  ForwardStats(p.x, p.Rows(), p.RowSize(), &p.mean, &p.rstd);
  return p;
}

void ExpectFiniteDifferencesAgree(const Problem& p) {
  const int64_t rows = p.Rows(), m = p.RowSize();
  const ReferenceResult result = p.Run();
  std::vector<double> w = p.weight.value_or(std::vector<double>(static_cast<size_t>(m), 1.0));
  std::vector<double> b(static_cast<size_t>(m), 0.25);
  std::vector<double> x = p.x;
  const double h = 1e-6;
  auto central = [&](double* variable) {
    const double saved = *variable;
    *variable = saved + h;
    const double up = ForwardLoss(p.grad, x, w, b, rows, m);
    *variable = saved - h;
    const double down = ForwardLoss(p.grad, x, w, b, rows, m);
    *variable = saved;
    return (up - down) / (2 * h);
  };
  for (size_t i = 0; i < x.size(); ++i) {
    const double numeric = central(&x[i]);
    EXPECT_NEAR(result.outputs[kGradInput].value[i], numeric, 1e-6 * (1 + std::fabs(numeric)))
        << "gradInput[" << i << "]";
    EXPECT_EQ(result.outputs[kGradInput].rule[i], kNoRule);
  }
  for (int64_t j = 0; j < m; ++j) {
    const double dw = central(&w[j]);
    const double db = central(&b[j]);
    EXPECT_NEAR(result.outputs[kGradWeight].value[j], dw, 1e-6 * (1 + std::fabs(dw))) << j;
    EXPECT_NEAR(result.outputs[kGradBias].value[j], db, 1e-6 * (1 + std::fabs(db))) << j;
  }
}

TEST(LayerNormBackwardReference, MatchesFiniteDifferenceOfForwardWithWeight) {
  ExpectFiniteDifferencesAgree(RandomProblem({3, 2, 5}, 2, true, 1));
  ExpectFiniteDifferencesAgree(RandomProblem({4, 7}, 1, true, 2));
  ExpectFiniteDifferencesAgree(RandomProblem({2, 3, 4}, 3, true, 3));  // k = rank: one row
}

TEST(LayerNormBackwardReference, MatchesFiniteDifferenceOfForwardWithoutWeight) {
  ExpectFiniteDifferencesAgree(RandomProblem({5, 6}, 1, false, 4));
  ExpectFiniteDifferencesAgree(RandomProblem({9}, 1, false, 5));
}

// Two rows of three, weight null (ones), mean and rstd given (not the rows' statistics).
Problem HandProblem() {
  Problem p;
  p.shape = {2, 3};
  p.x = {1, 2, 3, 0, 0, 3};
  p.mean = {2, 1};
  p.rstd = {1, 2};
  p.grad = {3, 1, -1, 1, -1, 0.5};
  return p;
}

TEST(LayerNormBackwardReference, HandComputedTwoRowsWithoutWeight) {
  const ReferenceResult result = HandProblem().Run();
  // Row 0: xh = [-1, 0, 1], mean(g) = 1, mean(g * xh) = -4/3: g - 1 + 4/3 xh.
  // Row 1: xh = [-2, -2, 4], mean(g) = 1/6, mean(g * xh) = 2/3: 2 (g - 1/6 - 2/3 xh).
  const std::vector<double> dx = {2.0 / 3, 0, -2.0 / 3, 13.0 / 3, 1.0 / 3, -14.0 / 3};
  for (size_t i = 0; i < dx.size(); ++i) {
    EXPECT_NEAR(result.outputs[kGradInput].value[i], dx[i], 1e-14) << i;
  }
  // gradWeight = sum of g * xh over rows: [-3, 0, -1] + [-2, 2, 2].
  EXPECT_EQ(result.outputs[kGradWeight].value, (std::vector<double>{-5, 2, 1}));
  EXPECT_EQ(result.outputs[kGradBias].value, (std::vector<double>{4, 0, -0.5}));
  EXPECT_TRUE(result.call_rules.empty());
}

TEST(LayerNormBackwardReference, HandComputedOneRowWithWeight) {
  Problem p;
  p.shape = {2};
  p.x = {1, 3};
  p.mean = {2};
  p.rstd = {0.5};
  p.grad = {1, 2};
  p.weight = std::vector<double>{2, 3};
  const ReferenceResult result = p.Run();
  // xh = [-0.5, 0.5], gw = [2, 6]: mean(gw) = 4, mean(gw * xh) = 1.
  EXPECT_EQ(result.outputs[kGradInput].value, (std::vector<double>{-0.75, 0.75}));
  EXPECT_EQ(result.outputs[kGradWeight].value, (std::vector<double>{-0.5, 1}));
  EXPECT_EQ(result.outputs[kGradBias].value, (std::vector<double>{1, 2}));
}

TEST(LayerNormBackwardReference, MagnitudeIsTheSumOfTheTermsWithXhWeightedByItsInputs) {
  const ReferenceResult result = HandProblem().Run();
  // Row 0: a = (|x| + |mean|) * rstd = [3, 4, 5], |gw| = [3, 1, 1]: S1 = 5, S2 = 18.
  // Row 1: a = [2, 2, 8], |gw| = [1, 1, 0.5]: S1 = 2.5, S2 = 8; rstd = 2.
  const std::vector<double> mag = {3 + 5.0 / 3 + 3 * 6,
                                   1 + 5.0 / 3 + 4 * 6,
                                   1 + 5.0 / 3 + 5 * 6,
                                   2 * (1 + 2.5 / 3 + 2 * 8.0 / 3),
                                   2 * (1 + 2.5 / 3 + 2 * 8.0 / 3),
                                   2 * (0.5 + 2.5 / 3 + 8 * 8.0 / 3)};
  for (size_t i = 0; i < mag.size(); ++i) {
    EXPECT_NEAR(result.outputs[kGradInput].mag[i], mag[i], 1e-12) << i;
  }
  EXPECT_EQ(result.outputs[kGradWeight].mag, (std::vector<double>{9 + 2, 4 + 2, 5 + 4}));
  EXPECT_EQ(result.outputs[kGradBias].mag, (std::vector<double>{4, 2, 1.5}));
}

TEST(LayerNormBackwardReference, BiasIsNeverReadAndNullWeightIsOnes) {
  Problem p = HandProblem();
  const ReferenceResult plain = p.Run();
  p.bias = std::vector<double>{kNaN, 100, -kInf};
  const ReferenceResult with_bias = p.Run();
  p.weight = std::vector<double>{1, 1, 1};
  const ReferenceResult ones = p.Run();
  for (size_t slot : {kGradInput, kGradWeight, kGradBias}) {
    EXPECT_EQ(with_bias.outputs[slot].value, plain.outputs[slot].value) << slot;
    EXPECT_EQ(ones.outputs[slot].value, plain.outputs[slot].value) << slot;
  }
}

TEST(LayerNormBackwardReference, MeanAndRstdOfAnyRankWithRElements) {
  const ReferenceResult expected = HandProblem().Run();
  for (const Dims& stat_shape : {Dims{2}, Dims{1, 2, 1}, Dims{2, 1, 1, 1}}) {
    Problem p = HandProblem();
    p.stat_shape = stat_shape;
    const ReferenceResult result = p.Run();
    EXPECT_EQ(result.outputs[kGradInput].value, expected.outputs[kGradInput].value)
        << FormatDims(stat_shape);
  }
  Problem one_row;
  one_row.shape = {2};
  one_row.x = {1, 3};
  one_row.mean = {2};
  one_row.rstd = {0.5};
  one_row.grad = {1, 2};
  one_row.stat_shape = Dims{};  // rank 0: one row
  // xh = [-0.5, 0.5], gw = g = [1, 2]: mean(gw) = 1.5, mean(gw * xh) = 0.25;
  // 0.5 * ([1, 2] - 1.5 - 0.25 * xh) = [-0.1875, 0.1875].
  EXPECT_EQ(one_row.Run().outputs[kGradInput].value, (std::vector<double>{-0.1875, 0.1875}));
}

TEST(LayerNormBackwardReference, EveryLayoutGivesTheContiguousResult) {
  Problem p;
  p.dtype = DType::kFloat16;
  p.stat_dtype = DType::kFloat16;
  p.shape = {4, 6};
  for (int i = 0; i < 24; ++i) {
    p.x.push_back(-2.5 + 0.375 * i);
    p.grad.push_back(0.25 * (i % 7) - 0.75);
  }
  p.mean = {-1.5, 0.5, 2.5, 4.5};
  p.rstd = {0.5, 1, 1.5, 2};
  p.weight = std::vector<double>{1, -0.5, 2, 0.25, 1.5, -1};
  const ReferenceResult expected = p.Run();
  for (const char* text : {"offset:3", "strided:2", "transposed"}) {
    p.layout = *Layout::Parse(text);
    const ReferenceResult result = p.Run();
    for (size_t slot : {kGradInput, kGradWeight, kGradBias}) {
      EXPECT_EQ(result.outputs[slot].value, expected.outputs[slot].value) << text << " " << slot;
      EXPECT_EQ(result.outputs[slot].mag, expected.outputs[slot].mag) << text << " " << slot;
    }
  }
}

TEST(LayerNormBackwardReference, NonFiniteInputsTagTheirRowOfGradInput) {
  const RuleTag tag = FolderOperator().Tag("layernorm.nonfinite_row");
  // Row 0 clean, the others each with one special input.
  for (int special = 0; special < 5; ++special) {
    Problem p;
    p.shape = {3, 4};
    p.x = {1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4};
    p.grad = {1, -1, 0.5, 2, 1, -1, 0.5, 2, 1, -1, 0.5, 2};
    p.mean = {2.5, 2.5, 2.5};
    p.rstd = {1, 1, 1};
    p.weight = std::vector<double>{1, 2, 3, 4};
    bool all_rows = false;
    switch (special) {
      case 0:
        p.grad[5] = kInf;
        break;
      case 1:
        p.x[6] = -kInf;
        break;
      case 2:
        p.mean[1] = kNaN;
        break;
      case 3:
        p.rstd[1] = kInf;
        break;
      case 4:
        (*p.weight)[2] = kNaN;
        all_rows = true;
        break;
    }
    const ReferenceResult result = p.Run();
    const ReferenceOutput& dx = result.outputs[kGradInput];
    for (int64_t i = 0; i < 12; ++i) {
      const bool tagged = all_rows || i / 4 == 1;
      EXPECT_EQ(dx.rule[i], tagged ? tag : kNoRule) << special << " " << i;
      EXPECT_EQ(std::isfinite(dx.value[i]), !tagged) << special << " " << i;
      EXPECT_TRUE(std::isfinite(dx.mag[i]));
    }
  }
}

TEST(LayerNormBackwardReference, NonFiniteTermsTagTheirColumnOfGradWeightAndGradBias) {
  const RuleTag tag = FolderOperator().Tag("layernorm.nonfinite_column");
  Problem p;
  p.shape = {2, 4};
  p.x = {1, 2, 3, 4, 4, 2, 2, 1};  // xh = [-3, -1, 1, 3] and [3, -1, -1, -3]
  p.mean = {2.5, 2.5};
  p.rstd = {2, 2};
  // Column 0: inf * -3 + 3 = -inf (gradBias inf); column 1: inf * -1 + -inf * -1 = NaN (gradBias
  // inf - inf = NaN); column 2 finite; column 3: a NaN gradOut.
  p.grad = {kInf, kInf, 1, kNaN, 1, -kInf, 1, 1};
  const ReferenceResult result = p.Run();
  const ReferenceOutput& dw = result.outputs[kGradWeight];
  const ReferenceOutput& db = result.outputs[kGradBias];
  EXPECT_EQ(dw.value[0], -kInf);
  EXPECT_EQ(db.value[0], kInf);
  EXPECT_TRUE(std::isnan(dw.value[1]));
  EXPECT_TRUE(std::isnan(db.value[1]));
  EXPECT_EQ(dw.value[2], 0);
  EXPECT_EQ(db.value[2], 2);
  EXPECT_TRUE(std::isnan(dw.value[3]));
  EXPECT_TRUE(std::isnan(db.value[3]));
  for (int j = 0; j < 4; ++j) {
    EXPECT_EQ(dw.rule[j], j == 2 ? kNoRule : tag) << j;
    EXPECT_EQ(db.rule[j], j == 2 ? kNoRule : tag) << j;
    if (j != 2) {
      EXPECT_EQ(dw.mag[j], 0) << j;
    }
  }
}

TEST(LayerNormBackwardReference, MaskedOffOutputsAreNotComputed) {
  const RuleTag tag = FolderOperator().Tag("layernorm.mask_untouched");
  for (int bits = 0; bits < 8; ++bits) {
    Problem p = HandProblem();
    p.mask = {(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0};
    const ReferenceResult result = p.Run();
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(result.outputs[kOutputs[i]].computed, p.mask[i]) << bits << " " << i;
    }
    const bool listed = std::find(result.call_rules.begin(), result.call_rules.end(), tag) !=
                        result.call_rules.end();
    EXPECT_EQ(listed, bits != 7) << bits;
  }
}

TEST(LayerNormBackwardReference, NoRowsGiveZeroGradWeightAndGradBias) {
  Problem p;
  p.shape = {0, 3};
  p.weight = std::vector<double>{1, 2, 3};
  const ReferenceResult result = p.Run();
  EXPECT_TRUE(result.outputs[kGradInput].computed);
  EXPECT_TRUE(result.outputs[kGradInput].value.empty());
  EXPECT_EQ(result.outputs[kGradWeight].value, (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(result.outputs[kGradBias].value, (std::vector<double>{0, 0, 0}));
  ASSERT_EQ(result.call_rules.size(), 1u);
  EXPECT_EQ(FolderOperator().RuleOfTag(result.call_rules[0]).id, "layernorm.empty_rows");
}

TEST(LayerNormBackwardReference, EmptyNormalizedShapeComputesNothing) {
  Problem p;
  p.shape = {3, 0};
  p.mean = p.rstd = {0, 0, 0};
  const ReferenceResult result = p.Run();
  for (size_t slot : {kGradInput, kGradWeight, kGradBias}) {
    EXPECT_TRUE(result.outputs[slot].value.empty()) << slot;
  }
  ASSERT_EQ(result.call_rules.size(), 1u);
  EXPECT_EQ(FolderOperator().RuleOfTag(result.call_rules[0]).id, "layernorm.empty_normalized");
  Problem both;
  both.shape = {0, 0};
  EXPECT_EQ(both.Run().call_rules.size(), 2u);
}

TEST(LayerNormBackwardReference, DerivedStatisticsAreTheForwardOnesRoundedToTheirDType) {
  const std::vector<double> x = {1, 2, 3, 6, -1, -1, -1, -1};
  for (DType stat_dtype : {DType::kFloat32, DType::kFloat16, DType::kFloat64}) {
    CallBuilder call(FolderOperator());
    call.Tensor("input", DType::kFloat32, {2, 4}, x)
        .Zeros("gradOut", DType::kFloat32, {2, 4})
        .Zeros("mean", stat_dtype, {2, 1}, *Layout::Parse("strided:2"))
        .Zeros("rstd", stat_dtype, {2, 1})
        .Param("normalizedShape", Dims{4})
        .Param("outputMask", std::vector<bool>{true, true, true});
    FolderOperator().def().derive_inputs(call.Args());
    // Row 0: mean 3, variance (4 + 1 + 0 + 9) / 4 = 3.5; row 1: mean -1, variance 0.
    EXPECT_EQ(call.tensor("mean").Values(), (std::vector<double>{3, -1}));
    EXPECT_EQ(call.tensor("rstd").Values(),
              (std::vector<double>{RoundTo(1 / std::sqrt(3.5 + kEps), stat_dtype),
                                   RoundTo(1 / std::sqrt(kEps), stat_dtype)}));
  }
}

TEST(LayerNormBackwardReference, DerivedStatisticsMakeEveryRowOfGradInputSumToZero) {
  Problem p = RandomProblem({6, 10}, 1, true, 9);
  CallBuilder call = p.Build();
  call.tensor("mean").Assign(std::vector<double>(6, 0.0));
  call.tensor("rstd").Assign(std::vector<double>(6, 0.0));
  FolderOperator().def().derive_inputs(call.Args());
  const ReferenceResult result = FolderOperator().Reference(call.Args());
  for (int r = 0; r < 6; ++r) {
    double sum = 0, scale = 0;
    for (int j = 0; j < 10; ++j) {
      sum += result.outputs[kGradInput].value[r * 10 + j];
      scale += std::fabs(result.outputs[kGradInput].value[r * 10 + j]);
    }
    EXPECT_NEAR(sum, 0, 1e-13 * scale) << r;  // sum of xh is 0 when mean is the row's mean
  }
}

TEST(LayerNormBackwardReference, DerivingLeavesStatisticsOfTheWrongSizeAlone) {
  CallBuilder call(FolderOperator());
  call.Tensor("input", DType::kFloat32, {2, 4}, std::vector<double>(8, 1.0))
      .Tensor("mean", DType::kFloat32, {3}, std::vector<double>{7, 7, 7})
      .Tensor("rstd", DType::kFloat32, {3}, std::vector<double>{7, 7, 7})
      .Param("normalizedShape", Dims{4})
      .Param("outputMask", std::vector<bool>{true, true, true});
  FolderOperator().def().derive_inputs(call.Args());
  EXPECT_EQ(call.tensor("mean").Values(), (std::vector<double>{7, 7, 7}));
}

}  // namespace
}  // namespace aclnn_check::layer_norm_backward
