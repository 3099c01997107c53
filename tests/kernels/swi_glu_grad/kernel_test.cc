// The portable float32 kernel (kernel.cc, `Compute`, which the cpu provider runs on the views its
// SIMD kernel does not take) on every layout, contiguous included, against the float64 reference:
// random inputs in every dtype, layout and split dim (sizes that are not multiples of 8 or 16),
// every special value, the exhaustive 16-bit sweep of A, and checks that the tolerance still
// rejects wrong results.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <iostream>
#include <limits>
#include <random>
#include <sstream>
#include <utility>

#include "support/kernel_agreement.h"
#include "support/operator_named.h"
#include "swi_glu_grad/swi_glu_grad.h"

namespace aclnn_check::swi_glu_grad {
namespace {

using testing::CallBuilder;
using testing::RunKernelAgainstReference;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr DType kDTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};

using testing::FolderOperator;

Dims HalvedShape(Dims shape, int64_t dim) {
  shape[static_cast<size_t>(dim < 0 ? dim + static_cast<int64_t>(shape.size()) : dim)] /= 2;
  return shape;
}

CallBuilder MakeCall(DType dtype, const Dims& x_shape, int64_t dim, const std::vector<double>& x,
                     const std::vector<double>& grad, Layout layout = {}) {
  CallBuilder call(FolderOperator());
  call.Tensor("yGrad", dtype, HalvedShape(x_shape, dim), grad, layout)
      .Tensor("x", dtype, x_shape, x, layout)
      .Zeros("out", dtype, x_shape, layout)
      .Param("dim", dim);
  return call;
}

struct RandomInputs {
  std::vector<double> x, grad;
};

RandomInputs Random(const Dims& x_shape, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> x_dist(-8, 8);
  std::normal_distribution<double> grad_dist(0, 2);
  RandomInputs inputs;
  inputs.x.resize(static_cast<size_t>(NumElements(x_shape)));
  inputs.grad.resize(inputs.x.size() / 2);
  for (double& v : inputs.x) v = x_dist(random);
  for (double& v : inputs.grad) v = grad_dist(random);
  return inputs;
}

// Max |kernel - reference| / ulp(reference), and the share of the budget it uses,
// |kernel - reference| / (u * mag), over the dA and the dB half of out (finite elements without a
// rule), computed here from the two results rather than by the output checker.
struct HalfUlps {
  double da = 0;
  double db = 0;
  double da_budget = 0;
  double db_budget = 0;
};

HalfUlps MeasureHalves(CallBuilder& call, DType dtype) {
  const OpArgs args = call.Args();
  const ReferenceResult reference = FolderOperator().Reference(args);
  SimdCompute(args, nullptr);
  const std::vector<double> device = ReadAsDouble(*args.tensor(kOut));
  const Split split = SplitOf(args);
  HalfUlps worst;
  for (size_t k = 0; k < device.size(); ++k) {
    const double ref = reference.outputs[kOut].value[k];
    if (!std::isfinite(RoundTo(ref, dtype)) || reference.outputs[kOut].rule[k] != kNoRule) continue;
    const double error = std::fabs(device[k] - ref);
    const bool first_half = (static_cast<int64_t>(k) / split.inner) % (2 * split.half) < split.half;
    double& ulps = first_half ? worst.da : worst.db;
    ulps = std::max(ulps, error / Ulp(ref, dtype));
    // In 16-bit outputs the final rounding hides the float32 error: fp32 only.
    if (dtype != DType::kFloat32) continue;
    double& budget = first_half ? worst.da_budget : worst.db_budget;
    budget =
        std::max(budget, error / (UnitRoundoff(DType::kFloat32) * reference.outputs[kOut].mag[k]));
  }
  return worst;
}

// Rows (A, B) of x, split on the last dim, with their yGrad: every combination of the values.
std::pair<std::vector<double>, std::vector<double>> EveryCombination(
    const std::vector<double>& as, const std::vector<double>& bs, const std::vector<double>& gs) {
  std::vector<double> x, grad;
  for (double a : as) {
    for (double b : bs) {
      for (double g : gs) {
        x.push_back(a);
        x.push_back(b);
        grad.push_back(g);
      }
    }
  }
  return {x, grad};
}

TEST(SwiGluGradKernel, AgreesWithReferenceInEveryDTypeLayoutAndDim) {
  struct Case {
    Dims shape;
    int64_t dim;
  };
  const Case cases[] = {{{7, 34}, -1},       {{34, 7}, 0},  {{3, 10, 7}, 1},
                        {{5, 3, 2, 18}, -1}, {{2, 14}, -2}, {{66}, 0}};
  uint64_t seed = 1;
  for (const Case& c : cases) {
    const RandomInputs inputs = Random(c.shape, seed++);
    for (DType dtype : kDTypes) {
      for (const char* layout : {"contiguous", "offset:1", "strided:3", "transposed"}) {
        CallBuilder call =
            MakeCall(dtype, c.shape, c.dim, inputs.x, inputs.grad, *Layout::Parse(layout));
        const auto agreement = RunKernelAgainstReference(FolderOperator(), call, Compute);
        EXPECT_TRUE(agreement.passed()) << DTypeName(dtype) << " " << FormatDims(c.shape) << " dim "
                                        << c.dim << " " << layout << ": " << agreement.Describe();
      }
    }
  }
}

TEST(SwiGluGradKernel, MaxUlpOnRandomInputsPerDTypeAndHalf) {
  const Dims shape{64, 250};
  const RandomInputs inputs = Random(shape, 99);
  for (DType dtype : kDTypes) {
    CallBuilder call = MakeCall(dtype, shape, -1, inputs.x, inputs.grad);
    const auto agreement = RunKernelAgainstReference(FolderOperator(), call, Compute);
    EXPECT_TRUE(agreement.passed()) << agreement.Describe();
    CallBuilder again = MakeCall(dtype, shape, -1, inputs.x, inputs.grad);
    const HalfUlps halves = MeasureHalves(again, dtype);
    const OutputMetrics& m = agreement.outputs.at("out").metrics;
    std::ostringstream line;
    line << "max ulp " << DTypeName(dtype) << ": out " << m.max_ulp << " (dA half " << halves.da
         << ", dB half " << halves.db << "), mean " << m.mean_ulp;
    if (dtype == DType::kFloat32) {
      line << "; max error / (u * mag): dA " << halves.da_budget << ", dB " << halves.db_budget;
    }
    if (m.rounding_bias) line << "; rounding bias " << *m.rounding_bias;
    std::cout << line.str() << "\n";
    ::testing::Test::RecordProperty(std::string("max_ulp_") + std::string(DTypeName(dtype)),
                                    line.str());
    // 16-bit outputs: within the final rounding. fp32: within the budget c * u * mag (dA cancels
    // near its root A = -1.2785, so its ulp error is not bounded there).
    if (dtype == DType::kFloat32) {
      EXPECT_LE(halves.da_budget, FolderOperator().Tolerance("out").c);
      EXPECT_LE(halves.db_budget, FolderOperator().Tolerance("out").c);
    } else {
      EXPECT_LE(halves.da, 1.0);
      EXPECT_LE(halves.db, 1.0);
    }
  }
}

// RMSE and mean relative error of one half of out against the reference, over the finite
// elements without a rule (relative error where |reference| >= 2^-14, the double benchmark's
// normal range in float32).
struct HalfErrors {
  double rmse = 0;
  double mere = 0;
};

HalfErrors ErrorsOf(const std::vector<double>& values, const std::vector<double>& reference,
                    bool first_half, const Split& split) {
  double squares = 0, relative = 0;
  int64_t count = 0, normal = 0;
  for (size_t k = 0; k < values.size(); ++k) {
    if ((((static_cast<int64_t>(k) / split.inner) % (2 * split.half)) < split.half) != first_half) {
      continue;
    }
    const double error = std::fabs(values[k] - reference[k]);
    squares += error * error;
    ++count;
    if (std::fabs(reference[k]) >= 0x1p-14) {
      relative += error / std::fabs(reference[k]);
      ++normal;
    }
  }
  return {std::sqrt(squares / static_cast<double>(count)), relative / static_cast<double>(normal)};
}

// PyTorch's float32 operations for the same gradient (autograd through silu(A) * B: dB = g *
// silu(A) with silu = A / (1 + exp(-A)), dA = silu_backward(g * B, A) = ((g * B) * s) * (1 + A *
// (1 - s))), one rounding each; CANN's double benchmark compares with PyTorch, so the kernel's
// float32 error must not be the larger one.
std::vector<double> PyTorchOrder(const std::vector<double>& x, const std::vector<double>& grad,
                                 const Split& split) {
  std::vector<double> out(x.size());
  const int64_t half_block = split.half * split.inner;
  for (int64_t o = 0; o < split.outer; ++o) {
    for (int64_t k = 0; k < half_block; ++k) {
      const size_t ia = static_cast<size_t>(o * 2 * half_block + k);
      const size_t ib = ia + static_cast<size_t>(half_block);
      const float a = static_cast<float>(x[ia]);
      const float b = static_cast<float>(x[ib]);
      const float g = static_cast<float>(grad[static_cast<size_t>(o * half_block + k)]);
      const float d = 1.0f + std::exp(-a);
      const float s = 1.0f / d;
      const float one_minus_s = 1.0f - s;
      const float a_term = a * one_minus_s;
      const float sum = 1.0f + a_term;
      const float gb = g * b;
      const float gbs = gb * s;
      out[ia] = gbs * sum;
      const float silu = a / d;
      out[ib] = g * silu;
    }
  }
  return out;
}

// The float32 kernels against PyTorch's float32 operations on 131072 random elements per half:
// dA at least 10 % more accurate in RMSE and mean relative error (u = exp(-A) * s where A > 0;
// with 1 - s there it was 1.4 % less accurate), dB as accurate within 2 % (A / d; (s * A) * g was
// 6 % and 10 % less accurate). README.md, "Algebraic form".
TEST(SwiGluGradKernel, Float32IsAtLeastAsAccurateAsPyTorchsOperations) {
  const Dims shape{256, 1024};
  const RandomInputs inputs = Random(shape, 7);
  for (auto [name, kernel] : {std::pair{"kernel.cc", &Compute}, {"SIMD", &SimdCompute}}) {
    CallBuilder call = MakeCall(DType::kFloat32, shape, -1, inputs.x, inputs.grad);
    const OpArgs args = call.Args();
    const ReferenceResult reference = FolderOperator().Reference(args);
    const std::vector<double> x = ReadAsDouble(*args.tensor(kX));
    const std::vector<double> grad = ReadAsDouble(*args.tensor(kYGrad));
    kernel(args, nullptr);
    const std::vector<double> device = ReadAsDouble(*args.tensor(kOut));
    const Split split = SplitOf(args);
    const std::vector<double> pytorch = PyTorchOrder(x, grad, split);
    const std::vector<double>& ref = reference.outputs[kOut].value;
    for (bool first_half : {true, false}) {
      const HalfErrors ours = ErrorsOf(device, ref, first_half, split);
      const HalfErrors theirs = ErrorsOf(pytorch, ref, first_half, split);
      const double limit = first_half ? 0.9 : 1.02;
      EXPECT_LE(ours.rmse, limit * theirs.rmse) << name << (first_half ? " dA" : " dB");
      EXPECT_LE(ours.mere, limit * theirs.mere) << name << (first_half ? " dA" : " dB");
    }
  }
}

TEST(SwiGluGradKernel, SpecialValuesFollowTheRules) {
  // Rows [A | B] along dim 1 with one yGrad each: every special of A against finite, zero,
  // infinite and NaN B and yGrad.
  const std::vector<double> as = {kInf,
                                  -kInf,
                                  kNaN,
                                  0.0,
                                  -0.0,
                                  -87.3,
                                  -87.4,
                                  -88.0,
                                  -88.7,
                                  -88.8,
                                  -89.0,
                                  -100.0,
                                  -1e4,
                                  -60000.0,
                                  16.6,
                                  17.0,
                                  40.0,
                                  1e4,
                                  -1.2784645427610737,
                                  1.0,
                                  1e-45,
                                  -1e-40};
  const std::vector<double> bs = {1.5, 0.0, kInf, -kInf, kNaN, 1e4};
  const std::vector<double> gs = {-2.0, 0.0, kInf, kNaN, 3e4};
  const auto [x, grad] = EveryCombination(as, bs, gs);
  const Dims shape{static_cast<int64_t>(grad.size()), 2};
  for (DType dtype : kDTypes) {
    for (const char* layout : {"contiguous", "transposed"}) {
      CallBuilder call = MakeCall(dtype, shape, 1, x, grad, *Layout::Parse(layout));
      const auto agreement = RunKernelAgainstReference(FolderOperator(), call, Compute);
      EXPECT_TRUE(agreement.passed())
          << DTypeName(dtype) << " " << layout << ": " << agreement.Describe();
      const auto& rules = agreement.outputs.at("out").rules;
      for (const char* rule :
           {"swiglu.a_inf", "swiglu.sigmoid_underflow", "swiglu.inf_times_small_factor"}) {
        if (dtype != DType::kFloat32 && std::string(rule) == "swiglu.inf_times_small_factor") {
          continue;  // the 16-bit grids miss dA's root and the subnormal As
        }
        ASSERT_TRUE(rules.contains(rule)) << rule;
        EXPECT_EQ(rules.at(rule).held, rules.at(rule).applied) << rule;
      }
    }
  }
}

TEST(SwiGluGradKernel, InfiniteYGradWithASubnormalBAgrees) {
  // CANN's order (factor * B) * yGrad: a subnormal B times a factor below 1/2 underflows to 0,
  // and 0 * inf is NaN where the reference's yGrad * B * factor is +-inf (rule
  // swiglu.inf_times_small_factor). bfloat16's smallest subnormal is 2^-133, so only
  // A far enough below dA's root (-20: factor about -4e-8) underflows there.
  const std::vector<double> as = {-2.4, -5.0, -20.0, -40.0, 0.5, 2.4, 30.0};
  const std::vector<double> bs = {1e-45, -1e-45, 1e-40, std::ldexp(1.0, -133), 1.0};
  const std::vector<double> gs = {kInf, -kInf, 2.0};
  const auto [x, grad] = EveryCombination(as, bs, gs);
  const Dims shape{static_cast<int64_t>(grad.size()), 2};
  for (DType dtype : kDTypes) {
    CallBuilder call = MakeCall(dtype, shape, 1, x, grad);
    const auto agreement = RunKernelAgainstReference(FolderOperator(), call, Compute);
    EXPECT_TRUE(agreement.passed()) << DTypeName(dtype) << ": " << agreement.Describe();
  }
}

TEST(SwiGluGradKernel, IntermediatesOutsideTheNormalRangeWithANormalResult) {
  // Found by `aclnn-check hunt` on the cpu provider (docs/hunt.md): (factor * B) * yGrad gave -inf
  // where B is near float32's largest and yGrad small (the reference about -1e38), and 0 or a
  // value off by a few per cent where B, or A for dB's A / d, is subnormal and yGrad about 1e17.
  const std::vector<std::array<double, 3>> found = {
      {5.9545488357543945, -3.4000009662648444e+38, 0.3214118480682373},
      {2.03810715675354, 3.402731992717976e+38, -0.24376145005226135},
      {1.9609375, 3.2034394698416473e+38, 0.2890625},
      {5.160398960113525, -1.401298464324817e-45, 9.258966801658675e+16},
      {-5.921782970428467, -1.401298464324817e-45, -9.258892928221184e+16},
      {-16.63553237915039, 1.1387594517098589e-38, -9.25885427351552e+16},
      {1.401298464324817e-45, 2.416146755218506, 9.258898941175398e+16},
      {-1.401298464324817e-45, 0.9999999403953552, 9.25895133977641e+16}};
  // Repeated so that the SIMD kernel sees them in whole vectors too.
  std::vector<double> as, bs, gs;
  for (int copy = 0; copy < 4; ++copy) {
    for (const auto& [a, b, g] : found) {
      as.push_back(a);
      bs.push_back(b);
      gs.push_back(g);
    }
  }
  std::vector<double> x = as;
  x.insert(x.end(), bs.begin(), bs.end());
  const Dims shape{1, static_cast<int64_t>(x.size())};
  for (DType dtype : {DType::kFloat32, DType::kBFloat16}) {
    using Kernel = void (*)(const OpArgs&, void*);
    const std::pair<const char*, Kernel> kernels[] = {{"portable", Compute}, {"simd", SimdCompute}};
    for (const auto& [name, kernel] : kernels) {
      CallBuilder call = MakeCall(dtype, shape, -1, x, gs);
      const auto agreement = RunKernelAgainstReference(FolderOperator(), call, kernel);
      EXPECT_TRUE(agreement.passed())
          << name << " " << DTypeName(dtype) << ": " << agreement.Describe();
    }
  }
}

TEST(SwiGluGradKernel, DenseSweepOfAInFloat32) {
  // A from -100 to 40 in steps of 2^-10 (the sigmoid's underflow edge near -87.34 and -88.72,
  // the saturation near 16.6, dA's root near -1.2785), with ordinary and with huge multipliers
  // that keep results normal where s is tiny.
  std::mt19937_64 random(3);
  std::normal_distribution<double> dist(0, 1);
  for (double scale : {1.0, 1e19}) {
    std::vector<double> x, grad;
    for (double a = -100; a <= 40; a += 1.0 / 1024) {
      x.push_back(a);
      x.push_back(scale * dist(random));
      grad.push_back(scale * dist(random));
    }
    const Dims shape{static_cast<int64_t>(grad.size()), 2};
    CallBuilder call = MakeCall(DType::kFloat32, shape, -1, x, grad);
    const auto agreement = RunKernelAgainstReference(FolderOperator(), call, Compute);
    EXPECT_TRUE(agreement.passed()) << "scale " << scale << ": " << agreement.Describe();
    const auto& rules = agreement.outputs.at("out").rules;
    ASSERT_TRUE(rules.contains("swiglu.sigmoid_underflow"));
    EXPECT_EQ(rules.at("swiglu.sigmoid_underflow").held,
              rules.at("swiglu.sigmoid_underflow").applied);
  }
}

TEST(SwiGluGradKernel, ExhaustiveSixteenBitA) {
  for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
    std::vector<double> x, grad;
    for (uint32_t bits = 0; bits < 65536; ++bits) {
      x.push_back(dtype == DType::kFloat16 ? DecodeHalf(static_cast<uint16_t>(bits))
                                           : DecodeBFloat16(static_cast<uint16_t>(bits)));
      x.push_back(0.75 + (bits % 7) * 0.5);
      grad.push_back(1.0 - (bits % 11) * 0.25);
    }
    CallBuilder call = MakeCall(dtype, {65536, 2}, -1, x, grad);
    const auto agreement = RunKernelAgainstReference(FolderOperator(), call, Compute);
    EXPECT_TRUE(agreement.passed()) << DTypeName(dtype) << ": " << agreement.Describe();
  }
}

// The reference's value with an error injected, checked against the documented tolerance.
OutputCheck CheckPerturbed(DType dtype, const Dims& shape, const RandomInputs& inputs,
                           const std::function<double(double ref, double mag, size_t k)>& perturb) {
  CallBuilder call = MakeCall(dtype, shape, -1, inputs.x, inputs.grad);
  const ReferenceOutput ref = FolderOperator().Reference(call.Args()).outputs[kOut];
  std::vector<double> device(ref.value.size());
  for (size_t k = 0; k < device.size(); ++k) device[k] = perturb(ref.value[k], ref.mag[k], k);
  const OutputTolerance& tol = FolderOperator().Tolerance("out");
  return CheckOutput(FolderOperator(), ref, device, dtype, {tol.ulp, tol.c, DType::kFloat32});
}

TEST(SwiGluGradKernel, TheToleranceRejectsWrongResults) {
  const Dims shape{16, 128};
  const RandomInputs inputs = Random(shape, 5);
  // Correctly rounded results pass.
  EXPECT_TRUE(CheckPerturbed(DType::kFloat32, shape, inputs, [](double ref, double, size_t) {
                return RoundTo(ref, DType::kFloat32);
              }).passed());
  // The older document's typo s * (1 - s * A) in place of s * (1 + A * (1 - s)) fails.
  const Split split{16, 64, 1};
  const OutputCheck typo =
      CheckPerturbed(DType::kFloat32, shape, inputs, [&](double ref, double, size_t k) {
        if (static_cast<int64_t>(k) % 128 >= split.half) return RoundTo(ref, DType::kFloat32);
        const double a = inputs.x[k], b = inputs.x[k + 64];
        const double g = inputs.grad[(k / 128) * 64 + k % 128];
        const double s = 1 / (1 + std::exp(-a));
        return RoundTo(g * b * s * (1 - s * a), DType::kFloat32);
      });
  EXPECT_FALSE(typo.passed());
  // Swapping the halves (B through silu, A the multiplier) fails.
  const OutputCheck swapped =
      CheckPerturbed(DType::kFloat32, shape, inputs, [&](double ref, double, size_t k) {
        const size_t partner = static_cast<int64_t>(k) % 128 < 64 ? k + 64 : k - 64;
        (void)ref;
        const double a = inputs.x[partner], b = inputs.x[k];
        const double g = inputs.grad[(k / 128) * 64 + k % 64];
        const double s = 1 / (1 + std::exp(-a));
        return RoundTo(
            static_cast<int64_t>(k) % 128 < 64 ? g * b * s * (1 + a * (1 - s)) : g * a * s,
            DType::kFloat32);
      });
  EXPECT_FALSE(swapped.passed());
  // An error of twice the budget c * u * mag (plus one ulp) fails.
  const double budget = FolderOperator().Tolerance("out").c * UnitRoundoff(DType::kFloat32);
  const OutputCheck loose =
      CheckPerturbed(DType::kFloat32, shape, inputs, [&](double ref, double mag, size_t) {
        return RoundTo(ref + 2 * budget * mag + 2 * Ulp(ref, DType::kFloat32), DType::kFloat32);
      });
  EXPECT_FALSE(loose.passed());
  // Truncation toward zero in bf16 passes element by element but fails the rounding bias.
  const OutputCheck truncated =
      CheckPerturbed(DType::kBFloat16, shape, inputs, [](double ref, double, size_t) {
        const double rounded = RoundTo(ref, DType::kBFloat16);
        if (std::fabs(rounded) <= std::fabs(ref)) return rounded;
        return rounded > 0 ? NextDown(rounded, DType::kBFloat16)
                           : NextUp(rounded, DType::kBFloat16);
      });
  EXPECT_EQ(truncated.metrics.failures, 0);
  EXPECT_FALSE(truncated.metrics.rounding_bias_ok);
}

}  // namespace
}  // namespace aclnn_check::swi_glu_grad
