// The float64 reference against a forward logit written here, differentiated numerically, and
// against every row of the eps table of kernels/logit_grad/README.md computed by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "logit_grad/logit_grad.h"
#include "support/call_builder.h"
#include "support/operator_named.h"

namespace aclnn_check::logit_grad {
namespace {

using testing::CallBuilder;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using testing::FolderOperator;

// torch.special.logit(x, eps): log(z / (1 - z)) with z = clamp(x, eps, 1 - eps) for eps >= 0.
double LogitForward(double x, double eps) {
  const double z = eps >= 0 ? std::clamp(x, eps, 1 - eps) : x;
  return std::log(z / (1 - z));
}

double F32(double value) { return static_cast<float>(value); }

ReferenceOutput RunReference(std::vector<double> x, std::vector<double> dy, double eps,
                             DType dtype = DType::kFloat32, Layout layout = {}) {
  const Dims shape{static_cast<int64_t>(x.size())};
  CallBuilder call(FolderOperator());
  call.Tensor("x", dtype, shape, x, layout)
      .Tensor("dy", dtype, shape, dy, layout)
      .Zeros("out", dtype, shape)
      .Param("eps", eps);
  return FolderOperator().Reference(call.Args()).outputs[kOut];
}

std::string RuleId(RuleTag tag) { return tag == kNoRule ? "" : FolderOperator().RuleOfTag(tag).id; }

// Same value, NaN equal to NaN, the sign of zeros and infinities included.
::testing::AssertionResult Same(double actual, double expected) {
  const bool same = (std::isnan(actual) && std::isnan(expected)) ||
                    (actual == expected && std::signbit(actual) == std::signbit(expected));
  if (same) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << actual << " is not " << expected;
}

TEST(LogitGradReference, MatchesFiniteDifferenceOfForward) {
  for (double eps : {-1.0, 0.0, 1e-3, 0.2, 0.45}) {
    std::vector<double> x, dy;
    for (double v = 0.0037; v < 1; v += 0.00917) {
      const double lo = std::max(eps, 0.0), hi = 1 - lo;
      if (v < lo + 1e-3 || v > hi - 1e-3) continue;  // the clamp's kinks are rules, not calculus
      x.push_back(v);
      dy.push_back(1.0 + std::sin(7 * v));
    }
    ASSERT_GT(x.size(), 5u);
    const ReferenceOutput out = RunReference(x, dy, eps);
    for (size_t i = 0; i < x.size(); ++i) {
      const double xf = F32(x[i]);  // the value the float32 tensor holds
      const double h = 1e-5 * std::min(xf, 1 - xf);
      const double numeric =
          F32(dy[i]) * (LogitForward(xf + h, eps) - LogitForward(xf - h, eps)) / (2 * h);
      EXPECT_NEAR(out.value[i], numeric, 1e-8 * std::fabs(numeric)) << "eps " << eps << " x " << xf;
      EXPECT_EQ(out.rule[i], kNoRule);
      EXPECT_EQ(out.mag[i], std::fabs(out.value[i]));
    }
  }
}

TEST(LogitGradReference, OutsideTheRangeTheForwardIsFlatOrUndefined) {
  // eps >= 0: the forward clamps, so its derivative is 0; eps < 0: log of a negative is NaN.
  const std::vector<double> x = {-0.5, 0.05, 0.97, 1.5, 3.0};
  const std::vector<double> dy = {1.0, -2.0, 3.0, 0.5, -1.0};
  const ReferenceOutput clamped = RunReference(x, dy, 0.1);
  const ReferenceOutput undefined = RunReference({-0.5, -1e-20, 1.0 + 1e-7, 2.0}, {1, 1, 1, 1}, -1);
  for (size_t i = 0; i < x.size(); ++i) {
    const double h = 1e-6;
    const double numeric =
        dy[i] * (LogitForward(x[i] + h, 0.1) - LogitForward(x[i] - h, 0.1)) / (2 * h);
    EXPECT_EQ(numeric, 0.0);
    EXPECT_EQ(clamped.value[i], 0.0) << x[i];
    EXPECT_EQ(RuleId(clamped.rule[i]), "logit.eps_outside") << x[i];
  }
  for (size_t i = 0; i < undefined.value.size(); ++i) {
    EXPECT_TRUE(std::isnan(undefined.value[i])) << i;
    EXPECT_EQ(RuleId(undefined.rule[i]), "logit.neg_eps_outside") << i;
  }
  EXPECT_TRUE(std::isnan(LogitForward(-0.5, -1)));
}

TEST(LogitGradReference, HandComputedValues) {
  // dy / (x (1 - x)): 1 / (1/4) = 4, 3 / (3/16) = 16, -1.5 / (3/16) = -8, 7 / (7/64) = 64.
  const ReferenceOutput out = RunReference({0.5, 0.25, 0.75, 0.125}, {1, 3, -1.5, 7}, -1);
  EXPECT_EQ(out.value, (std::vector<double>{4, 16, -8, 64}));
  EXPECT_EQ(out.mag, (std::vector<double>{4, 16, 8, 64}));
  const ReferenceOutput clamped = RunReference({0.25, 0.75, 0.5}, {1, 1, 2}, 0.25);
  EXPECT_EQ(clamped.value, (std::vector<double>{16.0 / 3, 16.0 / 3, 8}));  // the ends are inside
  const ReferenceOutput half = RunReference({0.5, F32(0.5 - 1e-7)}, {1, 1}, 0.5);
  EXPECT_EQ(half.value[0], 4.0);  // eps = 0.5: only x = 0.5 is inside
  EXPECT_EQ(half.value[1], 0.0);
}

struct Row {
  double eps, x, dy;
  double value;
  const char* rule;   // "" for the formula
  double alt = kNaN;  // checked where the rule has an alternative
  bool check_alt = false;
};

Row WithAlt(Row row, double alt) {
  row.alt = alt;
  row.check_alt = true;
  return row;
}

// The whole eps table, row by row and in its order of precedence.
TEST(LogitGradReference, EveryRowOfTheEpsTable) {
  const double eps_f32_below = 1e-6;  // float32(1e-6) < 1e-6
  ASSERT_LT(F32(eps_f32_below), eps_f32_below);
  const double x_low = F32(eps_f32_below);
  const double x_high = F32(0.8);  // float32(0.8) > 0.8 = 1 - 0.2
  ASSERT_GT(x_high, 0.8);
  const std::vector<Row> rows = {
      // logit.eps_nan: NaN; the CANN kernel takes the eps < 0 path.
      WithAlt({kNaN, 0.5, 1, kNaN, "logit.eps_nan"}, 4),
      WithAlt({kNaN, 0.0, 1, kNaN, "logit.eps_nan"}, kInf),
      WithAlt({kNaN, 2.0, 1, kNaN, "logit.eps_nan"}, kNaN),
      WithAlt({kNaN, kNaN, 1, kNaN, "logit.eps_nan"}, kNaN),
      // logit.eps_inf: 0, whatever x and dy are.
      {kInf, 0.5, 1, 0, "logit.eps_inf"},
      {kInf, kNaN, kNaN, 0, "logit.eps_inf"},
      {kInf, 0.0, kInf, 0, "logit.eps_inf"},
      // logit.eps_gt1: NaN; the kernel finds every x outside and writes 0.
      WithAlt({2.0, 0.5, 1, kNaN, "logit.eps_gt1"}, 0),
      WithAlt({1.0 + 0x1p-52, 0.5, 1, kNaN, "logit.eps_gt1"}, 0),
      WithAlt({1e300, 0.25, -1, kNaN, "logit.eps_gt1"}, 0),
      // logit.eps_eq1: an infinity with the sign of dy, NaN for dy 0 or NaN; the kernel writes 0.
      WithAlt({1.0, 0.5, 2, kInf, "logit.eps_eq1"}, 0),
      WithAlt({1.0, 0.5, -2, -kInf, "logit.eps_eq1"}, 0),
      WithAlt({1.0, 3.0, 0, kNaN, "logit.eps_eq1"}, 0),
      WithAlt({1.0, 0.5, kNaN, kNaN, "logit.eps_eq1"}, 0),
      WithAlt({1.0, kNaN, 3, kInf, "logit.eps_eq1"}, 0),  // the first match decides
      // logit.x_nan_inf: NaN; the kernel writes its fill.
      WithAlt({-1.0, kNaN, 1, kNaN, "logit.x_nan_inf"}, kNaN),
      WithAlt({-1.0, kInf, 1, kNaN, "logit.x_nan_inf"}, kNaN),
      WithAlt({-kInf, -kInf, 1, kNaN, "logit.x_nan_inf"}, kNaN),
      WithAlt({0.25, -kInf, 1, kNaN, "logit.x_nan_inf"}, 0),
      WithAlt({0.0, kNaN, 1, kNaN, "logit.x_nan_inf"}, 0),
      WithAlt({0.75, kInf, 1, kNaN, "logit.x_nan_inf"}, 0),
      WithAlt({-1e-50, kNaN, 1, kNaN, "logit.x_nan_inf"}, 0),  // float32(-1e-50) = -0 >= 0
      // logit.neg_eps_outside: NaN, whatever dy is.
      WithAlt({-1.0, -0.5, 1, kNaN, "logit.neg_eps_outside"}, kNaN),
      WithAlt({-1e-50, -0.5, 1, kNaN, "logit.neg_eps_outside"}, 0),  // float32(eps) = -0
      {-1.0, 1.5, kInf, kNaN, "logit.neg_eps_outside"},
      {-1.0, -1e-30, 0, kNaN, "logit.neg_eps_outside"},
      {-1.0, F32(1.0 + 1e-7), 1, kNaN, "logit.neg_eps_outside"},
      {-kInf, 2.0, 1, kNaN, "logit.neg_eps_outside"},
      // logit.eps_outside: 0, whatever dy is; every x when eps > 0.5.
      {0.25, 0.125, 1, 0, "logit.eps_outside"},
      {0.25, 0.875, kInf, 0, "logit.eps_outside"},
      {0.25, -3.0, kNaN, 0, "logit.eps_outside"},
      {0.0, -0.5, 1, 0, "logit.eps_outside"},
      {0.0, 1.5, 1, 0, "logit.eps_outside"},
      {-0.0, -0.5, 1, 0, "logit.eps_outside"},  // -0 is not below 0
      {0.5, 0.25, 1, 0, "logit.eps_outside"},
      {0.75, 0.5, 1, 0, "logit.eps_outside"},
      {0.75, 0.25, 1, 0, "logit.eps_outside"},
      {1.0 - 0x1p-20, 0.5, 1, 0, "logit.eps_outside"},
      // logit.x_edge: an infinity with the sign of dy (either sign for x = -0), NaN for dy 0/NaN.
      WithAlt({-1.0, 0.0, 2, kInf, "logit.x_edge"}, kInf),
      WithAlt({-1.0, 0.0, -2, -kInf, "logit.x_edge"}, -kInf),
      WithAlt({-1.0, -0.0, 2, kInf, "logit.x_edge"}, -kInf),
      WithAlt({-1.0, -0.0, -2, -kInf, "logit.x_edge"}, kInf),
      WithAlt({-1.0, 1.0, -3, -kInf, "logit.x_edge"}, -kInf),
      WithAlt({-1.0, 1.0, 0, kNaN, "logit.x_edge"}, kNaN),
      WithAlt({-1.0, 0.0, -0.0, kNaN, "logit.x_edge"}, kNaN),
      WithAlt({-1.0, 0.0, kNaN, kNaN, "logit.x_edge"}, kNaN),
      WithAlt({-1.0, 1.0, kInf, kInf, "logit.x_edge"}, kInf),
      WithAlt({0.0, 0.0, 1, kInf, "logit.x_edge"}, kInf),
      WithAlt({0.0, 1.0, -1, -kInf, "logit.x_edge"}, -kInf),
      WithAlt({-0.0, 1.0, 1, kInf, "logit.x_edge"}, kInf),
      WithAlt({1e-20, 1.0, 1, kInf, "logit.x_edge"}, kInf),  // 1 - 1e-20 is 1 in double
      // logit.dy_special: IEEE arithmetic inside the range.
      {-1.0, 0.5, kInf, kInf, "logit.dy_special"},
      {-1.0, 0.5, -kInf, -kInf, "logit.dy_special"},
      {-1.0, 0.25, kNaN, kNaN, "logit.dy_special"},
      {0.25, 0.5, -kInf, -kInf, "logit.dy_special"},
      // logit.eps_rounding: the documented side, the other side as alt.
      WithAlt({eps_f32_below, x_low, 1, 0, "logit.eps_rounding"}, 1 / (x_low * (1 - x_low))),
      WithAlt({0.2, x_high, 2, 0, "logit.eps_rounding"}, 2 / (x_high * (1 - x_high))),
      WithAlt({1e-50, 0.0, 1, 0, "logit.eps_rounding"}, kInf),  // float32(1e-50) = 0
      WithAlt({1e-50, -0.0, 1, 0, "logit.eps_rounding"}, -kInf),
      WithAlt({0.5 + 0x1p-40, 0.5, 1, 0, "logit.eps_rounding"}, 4),  // float32 eps = 0.5
      WithAlt({0x1p-30, 1.0, -1, 0, "logit.eps_rounding"}, -kInf),   // float32(1 - eps) = 1
      // The formula, also at the ends of the range and next to rounded bounds that do not matter.
      {-1.0, 0.5, 1, 4, ""},
      {0.25, 0.25, 3, 16, ""},
      {0.25, 0.75, -3, -16, ""},
      {0.1, F32(0.1), 1, 1 / (F32(0.1) * (1 - F32(0.1))), ""},  // float32(0.1) > 0.1: inside both
      {0.1, F32(0.9), 1, 1 / (F32(0.9) * (1 - F32(0.9))), ""},  // float32(0.9) < 0.9: inside both
      {0.0, 0x1p-149, 1, 1 / (0x1p-149 * (1 - 0x1p-149)), ""},
  };
  for (const Row& row : rows) {
    const ReferenceOutput out = RunReference({row.x}, {row.dy}, row.eps);
    const std::string where = "eps " + std::to_string(row.eps) + " x " + std::to_string(row.x) +
                              " dy " + std::to_string(row.dy);
    EXPECT_TRUE(Same(out.value[0], row.value)) << where;
    EXPECT_EQ(RuleId(out.rule[0]), row.rule) << where;
    if (row.check_alt) {
      EXPECT_TRUE(Same(out.alt[0], row.alt)) << where << " (alt)";
    }
    if (std::string(row.rule).empty()) {
      EXPECT_EQ(out.mag[0], std::fabs(row.value)) << where;
    }
  }
}

TEST(LogitGradReference, EpsRoundingDependsOnTheSideAndOnlyTagsAmbiguousElements) {
  // A float64 x just above 0.1 is inside in double but below float32(0.1): the documented side
  // is the formula, the alternative 0.
  const double x = 0.1 + 1e-12;
  const ReferenceOutput inside = RunReference({x, 0.1, F32(0.1)}, {1, 1, 1}, 0.1, DType::kFloat64);
  EXPECT_EQ(inside.value[0], 1 / (x * (1 - x)));
  EXPECT_EQ(inside.alt[0], 0.0);
  EXPECT_EQ(inside.mag[0], std::fabs(inside.value[0]));
  EXPECT_EQ(RuleId(inside.rule[0]), "logit.eps_rounding");
  EXPECT_EQ(RuleId(inside.rule[1]), "logit.eps_rounding");  // x = eps itself
  EXPECT_EQ(RuleId(inside.rule[2]), "");  // x = float32(eps) is inside for every bound
  // The magnitude of an outside element is the formula's: its alternative needs it.
  const double low = F32(1e-6);
  const ReferenceOutput outside = RunReference({low}, {-2}, 1e-6);
  EXPECT_EQ(outside.mag[0], std::fabs(-2 / (low * (1 - low))));
  // Representable eps and 1 - eps: nothing is ambiguous.
  std::vector<double> xs;
  for (double v = -0.25; v <= 1.25; v += 1.0 / 64) xs.push_back(v);
  const ReferenceOutput exact = RunReference(xs, std::vector<double>(xs.size(), 1.0), 0.25);
  for (size_t i = 0; i < xs.size(); ++i) {
    EXPECT_NE(RuleId(exact.rule[i]), "logit.eps_rounding");
  }
  // Negative eps has exact bounds 0 and 1.
  const ReferenceOutput negative = RunReference({0.0, 1.0, 0.5}, {1, 1, 1}, -0.1);
  for (RuleTag tag : negative.rule) EXPECT_NE(RuleId(tag), "logit.eps_rounding");
}

TEST(LogitGradReference, EveryLayoutGivesTheContiguousResult) {
  std::vector<double> x, dy;
  for (int i = 0; i < 24; ++i) {
    x.push_back(-0.2 + 0.06 * i);
    dy.push_back(0.25 * (i % 7) - 0.5);
  }
  for (double eps : {-1.0, 0.1}) {
    CallBuilder contiguous(FolderOperator());
    contiguous.Tensor("x", DType::kFloat16, {4, 6}, x)
        .Tensor("dy", DType::kFloat16, {4, 6}, dy)
        .Zeros("out", DType::kFloat16, {4, 6})
        .Param("eps", eps);
    const ReferenceOutput expected = FolderOperator().Reference(contiguous.Args()).outputs[kOut];
    for (const char* text : {"offset:3", "strided:2", "transposed"}) {
      const Layout layout = *Layout::Parse(text);
      CallBuilder call(FolderOperator());
      call.Tensor("x", DType::kFloat16, {4, 6}, x, layout)
          .Tensor("dy", DType::kFloat16, {4, 6}, dy, layout)
          .Zeros("out", DType::kFloat16, {4, 6}, layout)
          .Param("eps", eps);
      const ReferenceOutput out = FolderOperator().Reference(call.Args()).outputs[kOut];
      for (size_t i = 0; i < x.size(); ++i) {
        EXPECT_TRUE(Same(out.value[i], expected.value[i])) << text << " " << i;
        EXPECT_EQ(out.rule[i], expected.rule[i]) << text << " " << i;
      }
    }
  }
}

TEST(LogitGradReference, EmptyTensorComputesNothing) {
  CallBuilder call(FolderOperator());
  call.Zeros("x", DType::kFloat32, {0, 3})
      .Zeros("dy", DType::kFloat32, {0, 3})
      .Zeros("out", DType::kFloat32, {0, 3})
      .Param("eps", -1.0);
  const ReferenceResult result = FolderOperator().Reference(call.Args());
  EXPECT_TRUE(result.outputs[kOut].value.empty());
  ASSERT_EQ(result.call_rules.size(), 1u);
  EXPECT_EQ(FolderOperator().RuleOfTag(result.call_rules[0]).id, "logit.empty");
}

TEST(LogitGradReference, ACallWithoutEpsUsesTheSuggestedMinusOne) {
  CallBuilder call(FolderOperator());
  call.Tensor("x", DType::kFloat32, {2}, std::vector<double>{-0.5, 0.5})
      .Tensor("dy", DType::kFloat32, {2}, std::vector<double>{1, 1})
      .Zeros("out", DType::kFloat32, {2});
  const ReferenceOutput out = FolderOperator().Reference(call.Args()).outputs[kOut];
  EXPECT_TRUE(std::isnan(out.value[0]));
  EXPECT_EQ(out.value[1], 4.0);
}

}  // namespace
}  // namespace aclnn_check::logit_grad
