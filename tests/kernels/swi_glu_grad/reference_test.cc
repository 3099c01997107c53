// The float64 reference against a forward SwiGLU written here, differentiated numerically,
// against values computed by hand (40-digit arithmetic), and against every rule row.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "support/call_builder.h"
#include "support/operator_named.h"
#include "swi_glu_grad/swi_glu_grad.h"

namespace aclnn_check::swi_glu_grad {
namespace {

using testing::CallBuilder;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using testing::FolderOperator;

double Silu(double a) { return a / (1.0 + std::exp(-a)); }

// sum(yGrad * silu(A) * B) for x of `shape` split along `dim`, walking x by multi-index: the
// scalar whose gradient with respect to x is `out`.
double ForwardLoss(const Dims& shape, int64_t dim, const std::vector<double>& x,
                   const std::vector<double>& grad) {
  const size_t d = static_cast<size_t>(dim < 0 ? dim + static_cast<int64_t>(shape.size()) : dim);
  const Dims strides = ContiguousStrides(shape);
  Dims ygrad_shape = shape;
  ygrad_shape[d] /= 2;
  const Dims ygrad_strides = ContiguousStrides(ygrad_shape);
  double loss = 0;
  for (int64_t flat = 0; flat < NumElements(ygrad_shape); ++flat) {
    int64_t rest = flat, a_index = 0, b_index = 0;
    for (size_t k = 0; k < shape.size(); ++k) {
      const int64_t coordinate = rest / ygrad_strides[k];
      rest %= ygrad_strides[k];
      a_index += coordinate * strides[k];
      b_index += (k == d ? coordinate + ygrad_shape[d] : coordinate) * strides[k];
    }
    loss += grad[flat] * Silu(x[a_index]) * x[b_index];
  }
  return loss;
}

struct ReferenceRun {
  CallBuilder call{FolderOperator()};
  ReferenceResult result;
  const ReferenceOutput& out() const { return result.outputs[kOut]; }
};

ReferenceRun RunReference(const Dims& x_shape, int64_t dim, const std::vector<double>& x,
                          const std::vector<double>& grad, DType dtype = DType::kFloat32,
                          Layout layout = {}) {
  const size_t d = static_cast<size_t>(dim < 0 ? dim + static_cast<int64_t>(x_shape.size()) : dim);
  Dims ygrad_shape = x_shape;
  ygrad_shape[d] /= 2;
  ReferenceRun run;
  run.call.Tensor("yGrad", dtype, ygrad_shape, grad, layout)
      .Tensor("x", dtype, x_shape, x, layout)
      .Zeros("out", dtype, x_shape, layout)
      .Param("dim", dim);
  run.result = FolderOperator().Reference(run.call.Args());
  return run;
}

// Values every float32 holds exactly, spread over [-6, 6] and [-2, 2].
std::vector<double> Ramp(size_t n, double low, double step, double modulo) {
  std::vector<double> values(n);
  for (size_t i = 0; i < n; ++i) {
    values[i] = static_cast<float>(low + std::fmod(step * static_cast<double>(i), modulo));
  }
  return values;
}

TEST(SwiGluGradReference, MatchesFiniteDifferenceOfForwardAlongEveryDim) {
  const Dims shape{2, 4, 6};
  const std::vector<double> x = Ramp(48, -6.0, 1.37, 12.0);
  for (int64_t dim : {0, 1, 2, -1, -3}) {
    const size_t d = static_cast<size_t>(dim < 0 ? dim + 3 : dim);
    Dims ygrad_shape = shape;
    ygrad_shape[d] /= 2;
    const std::vector<double> grad = Ramp(24, -2.0, 0.71, 4.0);
    const ReferenceRun run = RunReference(shape, dim, x, grad);
    ASSERT_TRUE(run.out().computed);
    for (size_t k = 0; k < x.size(); ++k) {
      const double h = 1e-5;
      std::vector<double> plus = x, minus = x;
      plus[k] += h;
      minus[k] -= h;
      const double numeric =
          (ForwardLoss(shape, dim, plus, grad) - ForwardLoss(shape, dim, minus, grad)) / (2 * h);
      EXPECT_NEAR(run.out().value[k], numeric, 1e-8 * (1 + std::fabs(numeric)))
          << "dim " << dim << " element " << k;
      EXPECT_EQ(run.out().rule[k], kNoRule);
    }
  }
}

TEST(SwiGluGradReference, HandComputedValues) {
  // x = [A0, A1, A2, A3 | B0, B1, B2, B3] along dim 0; silu'(A) and silu(A) in 40 digits.
  const std::vector<double> a = {1.0, -2.0, 0.5, 3.0};
  const std::vector<double> silu_derivative = {
      0.927670511871486731788584, -0.09078424878489547875697751, 0.7399611873026518091735519,
      1.088104106015169617069232};
  const std::vector<double> silu = {0.7310585786300048792511592, -0.2384058440442351118805417,
                                    0.3112296656009272823194503, 2.857722380467299657363456};
  const std::vector<double> b = {2.0, -0.5, 4.0, 1.0};
  const std::vector<double> g = {1.5, 3.0, -1.0, 0.25};
  std::vector<double> x = a;
  x.insert(x.end(), b.begin(), b.end());
  const ReferenceRun run = RunReference({8}, 0, x, g);
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_NEAR(run.out().value[k], g[k] * b[k] * silu_derivative[k], 1e-15) << k;
    EXPECT_NEAR(run.out().value[k + 4], g[k] * silu[k], 1e-15) << k;
  }
  // A = 0: s = 1/2, so dA = yGrad * B / 2 exactly and dB = 0.
  const ReferenceRun zero = RunReference({2}, -1, {0.0, 6.0}, {3.0});
  EXPECT_EQ(zero.out().value[0], 9.0);
  EXPECT_EQ(zero.out().value[1], 0.0);
}

TEST(SwiGluGradReference, SymmetryOfTheSigmoid) {
  // s(-A) = 1 - s(A) gives silu'(A) + silu'(-A) = 1 and silu(A) - silu(-A) = A. Two rows
  // [A | B] along dim 1 with B = 1 and yGrad = 1: row 0 holds A, row 1 holds -A.
  const std::vector<double> a = Ramp(20, 0.0, 0.61, 9.0);
  std::vector<double> rows;
  for (double sign : {1.0, -1.0}) {
    for (double v : a) rows.push_back(sign * v);
    rows.insert(rows.end(), a.size(), 1.0);
  }
  const ReferenceRun run = RunReference({2, 40}, 1, rows, std::vector<double>(40, 1.0));
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_NEAR(run.out().value[i] + run.out().value[40 + i], 1.0, 4e-15) << a[i];
    EXPECT_NEAR(run.out().value[20 + i] - run.out().value[60 + i], a[i], 1e-14) << a[i];
  }
}

TEST(SwiGluGradReference, MagnitudeFollowsTheErrorOfTheSigmoid) {
  // A = 2: s = 1/(1 + e^-2).
  const ReferenceRun run = RunReference({2}, 0, {2.0, -3.0}, {0.5});
  const double s = 1.0 / (1.0 + std::exp(-2.0));
  EXPECT_DOUBLE_EQ(run.out().mag[0], 0.5 * 3.0 * s * (1.0 + 2.0 * (1.0 + s)));
  EXPECT_DOUBLE_EQ(run.out().mag[1], 0.5 * 2.0 * s);
  // The magnitude does not vanish with the value: dA = 0 where 1 + A(1 - s) = 0 is still a sum.
  const ReferenceRun root = RunReference({2}, 0, {-1.2784645427610737, 1.0}, {1.0});
  EXPECT_LT(std::fabs(root.out().value[0]), 1e-7);
  EXPECT_GT(root.out().mag[0], 0.5);
  // Below -126 ln 2 the sigmoid's error is u * 2^-126, not u * s.
  const ReferenceRun deep = RunReference({2}, 0, {-100.0, 1.0}, {1.0});
  EXPECT_DOUBLE_EQ(deep.out().mag[1], 100.0 * std::ldexp(1.0, -126));
}

TEST(SwiGluGradReference, InfiniteAGivesTheFormulasNaNAndAcceptsTheLimit) {
  const RuleTag tag = FolderOperator().Tag("swiglu.a_inf");
  // Rows [A | B]: A = +inf with B = 2, yGrad = 3; A = -inf with B = 2, yGrad = -3.
  const ReferenceRun run = RunReference({2, 2}, 1, {kInf, 2.0, -kInf, 2.0}, {3.0, -3.0});
  const ReferenceOutput& out = run.out();
  EXPECT_TRUE(std::isnan(out.value[0]));  // dA at +inf: inf * 0 inside 1 + A (1 - s)
  EXPECT_EQ(out.alt[0], 6.0);             // limit yGrad * B
  EXPECT_EQ(out.value[1], kInf);          // dB = yGrad * inf * 1
  EXPECT_EQ(out.alt[1], kInf);
  EXPECT_TRUE(std::isnan(out.value[2]));  // dA at -inf: s = 0 times -inf
  EXPECT_EQ(out.alt[2], 0.0);
  EXPECT_TRUE(std::isnan(out.value[3]));  // dB = yGrad * -inf * 0
  EXPECT_EQ(out.alt[3], 0.0);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(out.rule[k], tag) << k;
  // A zero yGrad with A = +inf: the product is NaN either way.
  const ReferenceRun zero = RunReference({2}, 0, {kInf, 2.0}, {0.0});
  EXPECT_TRUE(std::isnan(zero.out().value[1]));
  EXPECT_TRUE(std::isnan(zero.out().alt[1]));
}

TEST(SwiGluGradReference, SigmoidUnderflowAcceptsTheKernelsZeroSigmoid) {
  const RuleTag tag = FolderOperator().Tag("swiglu.sigmoid_underflow");
  // Rows [A | B]: A = -90 (float32 exp(90) overflows), A = -87.4, A = -87.3 (no rule).
  const ReferenceRun run =
      RunReference({3, 2}, -1, {-90.0, 1e30, -87.4, 1.0, -87.3, 1.0}, {1e10, 1.0, 1.0});
  const ReferenceOutput& out = run.out();
  const double s90 = 1.0 / (1.0 + std::exp(90.0));
  const double b = static_cast<float>(1e30);  // the value the float32 tensor holds
  EXPECT_DOUBLE_EQ(out.value[0], 1e10 * b * s90 * (1.0 - 90.0 * (1.0 - s90)));
  EXPECT_LT(out.value[0], -1e-10);  // a normal float32 result the kernel's s = 0 cannot reach
  EXPECT_EQ(out.alt[0], 0.0);
  EXPECT_EQ(out.rule[0], tag);
  EXPECT_EQ(out.rule[1], tag);
  EXPECT_EQ(out.alt[1], 0.0);
  EXPECT_EQ(out.rule[2], tag);
  EXPECT_EQ(out.rule[4], kNoRule);
  EXPECT_EQ(out.rule[5], kNoRule);
  // With an infinite yGrad the reference is -inf, the kernel form 0 * inf is NaN.
  const ReferenceRun inf = RunReference({2}, 0, {-95.0, 1.0}, {kInf});
  EXPECT_EQ(inf.out().value[0], -kInf);
  EXPECT_TRUE(std::isnan(inf.out().alt[0]));
  EXPECT_EQ(inf.out().value[1], -kInf);
  EXPECT_TRUE(std::isnan(inf.out().alt[1]));
}

TEST(SwiGluGradReference, InfiniteMultiplierOfAFactorNearZeroAcceptsEitherInfinityOrNaN) {
  const RuleTag tag = FolderOperator().Tag("swiglu.inf_times_small_factor");
  const double root = static_cast<float>(-1.2784645427610737);  // dA's factor vanishes near it
  const double subnormal = std::ldexp(1.0, -149);
  // Rows [A | B] along dim 1.
  const ReferenceRun run =
      RunReference({5, 2}, 1, {root, 1.0, root, kInf, 1.0, 1.0, subnormal, 1.0, 0.0, 1.0},
                   {kInf, 2.0, kInf, kInf, kInf});
  const ReferenceOutput& out = run.out();
  EXPECT_TRUE(std::isinf(out.value[0]));  // inf times a tiny non-zero factor
  EXPECT_EQ(out.rule[0], tag);
  EXPECT_EQ(out.rule[1], kNoRule);  // dB = inf * A * s is far from 0
  EXPECT_EQ(out.rule[2], tag);      // B = inf with a finite yGrad
  EXPECT_EQ(out.rule[4], kNoRule);  // A = 1: the factor is far from 0
  EXPECT_EQ(out.rule[5], kNoRule);
  EXPECT_EQ(out.value[6], kInf);  // dA = inf * 1 * (1/2 + ...) at a subnormal A
  EXPECT_EQ(out.rule[6], kNoRule);
  EXPECT_EQ(out.value[7], kInf);  // dB = inf * 2^-150
  EXPECT_EQ(out.rule[7], tag);
  EXPECT_TRUE(std::isnan(out.value[9]));  // A = 0: an exact zero times inf is NaN in every form
  EXPECT_EQ(out.rule[9], kNoRule);
  // A finite multiplier never needs the rule, however small the factor.
  const ReferenceRun finite = RunReference({2}, 0, {root, 1e30}, {1e30});
  EXPECT_EQ(finite.out().rule[0], kNoRule);
}

TEST(SwiGluGradReference, InfiniteYGradTimesAnUnderflowingFactorTimesBAcceptsEitherInfinityOrNaN) {
  const RuleTag tag = FolderOperator().Tag("swiglu.inf_times_small_factor");
  const double subnormal = std::ldexp(1.0, -149);
  // Rows [A | B] along dim 1: B subnormal with yGrad = inf, where factor * B (A = -2.4: factor
  // about -0.1) is below 2^-126 and rounds to 0 in float32; B = 1 (no rule); B = 2^-100, where
  // the product stays normal (no rule); yGrad subnormal with B = inf (the other order).
  const ReferenceRun run = RunReference(
      {4, 2}, 1, {-2.4, subnormal, -2.4, 1.0, -2.4, std::ldexp(1.0, -100), -2.4, kInf},
      {kInf, kInf, kInf, subnormal});
  const ReferenceOutput& out = run.out();
  EXPECT_EQ(out.value[0], -kInf);  // inf * 2^-149 * s * (negative factor) in double
  EXPECT_EQ(out.rule[0], tag);
  EXPECT_EQ(out.rule[2], kNoRule);
  EXPECT_EQ(out.rule[4], kNoRule);
  EXPECT_EQ(out.value[6], -kInf);
  EXPECT_EQ(out.rule[6], tag);
  // Both infinite: nothing finite to underflow, and the factor is far from 0.
  const ReferenceRun both = RunReference({2}, 0, {-2.4, kInf}, {kInf});
  EXPECT_EQ(both.out().rule[0], kNoRule);
}

TEST(SwiGluGradReference, NaNPropagatesWithoutARule) {
  const ReferenceRun run = RunReference({2, 2}, 1, {kNaN, 1.0, 1.0, kNaN}, {1.0, 1.0});
  EXPECT_TRUE(std::isnan(run.out().value[0]));
  EXPECT_TRUE(std::isnan(run.out().value[1]));
  EXPECT_TRUE(std::isnan(run.out().value[2]));   // dA depends on B
  EXPECT_FALSE(std::isnan(run.out().value[3]));  // dB does not
  for (int k = 0; k < 4; ++k) EXPECT_EQ(run.out().rule[k], kNoRule);
}

TEST(SwiGluGradReference, EveryLayoutGivesTheContiguousResult) {
  const std::vector<double> x = Ramp(48, -6.0, 0.77, 12.0);
  const std::vector<double> grad = Ramp(24, -2.0, 0.33, 4.0);
  for (int64_t dim : {0, 1}) {
    const Dims shape{dim == 0 ? 8 : 6, dim == 0 ? 6 : 8};
    const ReferenceRun contiguous = RunReference(shape, dim, x, grad, DType::kFloat16);
    EXPECT_TRUE(contiguous.result.call_rules.empty());
    for (const char* text : {"offset:3", "strided:2", "transposed"}) {
      const ReferenceRun run =
          RunReference(shape, dim, x, grad, DType::kFloat16, *Layout::Parse(text));
      EXPECT_EQ(run.out().value, contiguous.out().value) << text << " dim " << dim;
      EXPECT_EQ(run.out().mag, contiguous.out().mag) << text << " dim " << dim;
      const bool listed =
          run.result.call_rules.size() == 1 &&
          FolderOperator().RuleOfTag(run.result.call_rules[0]).id == "swiglu.non_contiguous";
      EXPECT_EQ(listed, std::string(text) != "offset:3") << text;
    }
  }
}

TEST(SwiGluGradReference, OneNonContiguousTensorListsTheCallRule) {
  CallBuilder call(FolderOperator());
  call.Zeros("yGrad", DType::kFloat32, {3, 2})
      .Zeros("x", DType::kFloat32, {3, 4})
      .Zeros("out", DType::kFloat32, {3, 4}, *Layout::Parse("strided:2"))
      .Param("dim", int64_t{1});
  const ReferenceResult result = FolderOperator().Reference(call.Args());
  ASSERT_EQ(result.call_rules.size(), 1u);
  EXPECT_EQ(FolderOperator().RuleOfTag(result.call_rules[0]).id, "swiglu.non_contiguous");
}

TEST(SwiGluGradReference, ACallValidationRejectsComputesNothing) {
  CallBuilder call(FolderOperator());
  call.Zeros("yGrad", DType::kFloat32, {3, 3})
      .Zeros("x", DType::kFloat32, {3, 4})
      .Zeros("out", DType::kFloat32, {3, 4})
      .Param("dim", int64_t{1});
  EXPECT_FALSE(FolderOperator().Reference(call.Args()).outputs[kOut].computed);
}

}  // namespace
}  // namespace aclnn_check::swi_glu_grad
