// The portable float32 kernel (kernel.cc, `Compute`, which the cpu provider runs on the views its
// SIMD kernel does not take) on every layout, contiguous included, against the float64 reference:
// random inputs with the forward's statistics in every dtype, layout, weight/bias presence,
// statistics and parameter dtype and output mask; row and column lengths that are not multiples of
// 8 or 16; a long column reduction; special values; empty problems. Also measures the ULP error for
// the report.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <random>

#include "layer_norm_backward/layer_norm_backward.h"
#include "support/kernel_agreement.h"
#include "support/operator_named.h"

namespace aclnn_check::layer_norm_backward {
namespace {

using testing::CallBuilder;
using testing::RunKernelAgainstReference;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr DType kDTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};
constexpr const char* kLayouts[] = {"contiguous", "offset:1", "strided:3", "transposed"};

using testing::FolderOperator;

struct Case {
  DType dtype = DType::kFloat32;
  Dims shape = {5, 3, 37};
  int64_t k = 1;
  const char* layout = "contiguous";
  bool weight = true;
  bool bias = true;
  DType stat_dtype = DType::kFloat32;
  DType param_dtype = DType::kFloat32;
  std::vector<bool> mask = {true, true, true};
  bool derive = true;                   // mean/rstd from the forward; else random
  double grad_low = -1, grad_high = 1;  // gradOut: uniform in [low, high] times a normal sign mix
  uint64_t seed = 1;
};

Dims Normalized(const Case& s) { return Dims(s.shape.end() - s.k, s.shape.end()); }

CallBuilder MakeCall(const Case& s) {
  std::mt19937_64 random(s.seed);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_real_distribution<double> grad_dist(s.grad_low, s.grad_high);
  const Layout layout = *Layout::Parse(s.layout);
  const Dims normalized = Normalized(s);
  Dims stat_shape(s.shape.begin(), s.shape.end() - s.k);
  stat_shape.insert(stat_shape.end(), static_cast<size_t>(s.k), 1);
  const int64_t n = NumElements(s.shape);
  const int64_t m = NumElements(normalized);
  const int64_t rows = NumElements(stat_shape);
  std::vector<double> grad(n), x(n), w(m), b(m), mean(rows), rstd(rows);
  for (int64_t i = 0; i < n; ++i) {
    grad[i] = grad_dist(random);
    x[i] = 0.75 + 2 * normal(random) + (i / std::max<int64_t>(m, 1)) % 3;  // row offsets differ
  }
  for (int64_t j = 0; j < m; ++j) {
    w[j] = 1 + 0.5 * normal(random);
    b[j] = normal(random);
  }
  for (int64_t r = 0; r < rows; ++r) {
    mean[r] = normal(random);
    rstd[r] = 0.25 + std::fabs(normal(random));
  }
  CallBuilder call(FolderOperator());
  call.Tensor("gradOut", s.dtype, s.shape, grad, layout)
      .Tensor("input", s.dtype, s.shape, x, layout)
      .Tensor("mean", s.stat_dtype, stat_shape, mean, layout)
      .Tensor("rstd", s.stat_dtype, stat_shape, rstd, layout)
      .Param("normalizedShape", normalized)
      .Param("outputMask", s.mask);
  if (s.weight) call.Tensor("weight", s.param_dtype, normalized, w, layout);
  if (s.bias) call.Tensor("bias", s.param_dtype, normalized, b, layout);
  call.Zeros("gradInput", s.dtype, s.shape, layout)
      .Zeros("gradWeight", s.param_dtype, normalized, layout)
      .Zeros("gradBias", s.param_dtype, normalized, layout);
  if (s.derive) FolderOperator().def().derive_inputs(call.Args());
  return call;
}

void ComputeInPlace(CallBuilder& call) {
  const OpArgs args = call.Args();
  std::vector<std::byte> workspace(SimdWorkspaceBytes(args) + 1);
  SimdCompute(args, workspace.data());
}

std::string Describe(const Case& s) {
  return std::string(DTypeName(s.dtype)) + " " + FormatDims(s.shape) + " k=" + std::to_string(s.k) +
         " " + s.layout + (s.weight ? " weight" : " no-weight") +
         " stat=" + std::string(DTypeName(s.stat_dtype)) +
         " param=" + std::string(DTypeName(s.param_dtype)) + " mask=" + std::to_string(s.mask[0]) +
         std::to_string(s.mask[1]) + std::to_string(s.mask[2]);
}

void ExpectAgreement(const Case& s) {
  CallBuilder call = MakeCall(s);
  const auto agreement = RunKernelAgainstReference(FolderOperator(), call, Compute);
  EXPECT_TRUE(agreement.passed()) << Describe(s) << ": " << agreement.Describe();
}

TEST(LayerNormBackwardKernel, AgreesWithReferenceInEveryDTypeAndLayout) {
  for (DType dtype : kDTypes) {
    for (const char* layout : kLayouts) {
      for (bool weight : {true, false}) {
        for (bool same : {false, true}) {
          Case s;
          s.dtype = dtype;
          s.layout = layout;
          s.weight = s.bias = weight;
          s.stat_dtype = s.param_dtype = same ? dtype : DType::kFloat32;
          ExpectAgreement(s);
          s.k = 2;  // rows of 3 x 37 = 111
          s.seed = 2;
          ExpectAgreement(s);
        }
      }
    }
  }
}

TEST(LayerNormBackwardKernel, AgreesWithRandomStatisticsFarFromTheRowsOwn) {
  for (DType dtype : kDTypes) {
    Case s;
    s.dtype = dtype;
    s.derive = false;
    s.shape = {33, 19};
    ExpectAgreement(s);
  }
}

TEST(LayerNormBackwardKernel, EveryOutputMaskLeavesMaskedOutputsUntouched) {
  for (int bits = 0; bits < 8; ++bits) {
    Case s;
    s.dtype = DType::kFloat16;
    s.mask = {(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0};
    CallBuilder call = MakeCall(s);
    std::vector<std::vector<std::byte>> before;
    for (size_t i = 0; i < 3; ++i) {
      HostTensor& out = call.tensor(FolderOperator().tensors()[kOutputs[i]].name);
      for (std::byte& b : out.bytes()) b = std::byte{0x5A};
      before.emplace_back(out.bytes().begin(), out.bytes().end());
    }
    const auto agreement = RunKernelAgainstReference(FolderOperator(), call, Compute);
    EXPECT_TRUE(agreement.passed()) << bits << ": " << agreement.Describe();
    for (size_t i = 0; i < 3; ++i) {
      const HostTensor& out = call.tensor(FolderOperator().tensors()[kOutputs[i]].name);
      const bool unchanged = std::equal(out.bytes().begin(), out.bytes().end(), before[i].begin());
      EXPECT_EQ(unchanged, !s.mask[i]) << bits << " output " << i;
      EXPECT_EQ(agreement.outputs.count(std::string(FolderOperator().tensors()[kOutputs[i]].name)),
                s.mask[i] ? 1u : 0u);
    }
  }
}

TEST(LayerNormBackwardKernel, SizesThatAreNotMultiplesOfTheBlock) {
  for (const Dims& shape : {Dims{1}, Dims{1, 1}, Dims{17, 1}, Dims{15, 15}, Dims{16, 16},
                            Dims{33, 17}, Dims{3, 255}, Dims{2, 1025}, Dims{7, 5, 3}}) {
    for (DType dtype : kDTypes) {
      Case s;
      s.dtype = dtype;
      s.shape = shape;
      ExpectAgreement(s);
    }
  }
}

TEST(LayerNormBackwardKernel, LongColumnSumsOver65536Rows) {
  // Same-sign gradOut: the column sums grow with every row, the hardest case for the c of
  // gradWeight and gradBias.
  for (DType dtype : kDTypes) {
    for (bool same_sign : {true, false}) {
      Case s;
      s.dtype = dtype;
      s.shape = {65536, 8};
      s.grad_low = same_sign ? 0.5 : -1;
      s.grad_high = same_sign ? 1.5 : 1;
      s.weight = false;
      CallBuilder call = MakeCall(s);
      const auto agreement = RunKernelAgainstReference(FolderOperator(), call, Compute);
      EXPECT_TRUE(agreement.passed()) << Describe(s) << ": " << agreement.Describe();
      for (const char* output : {"gradWeight", "gradBias"}) {
        std::cout << "[ LNB long ] " << DTypeName(dtype) << (same_sign ? " same-sign " : " mixed ")
                  << output << " max ulp " << agreement.outputs.at(output).metrics.max_ulp << "\n";
      }
    }
  }
}

TEST(LayerNormBackwardKernel, LongRowSums) {
  for (DType dtype : kDTypes) {
    Case s;
    s.dtype = dtype;
    s.shape = {3, 65536 + 3};
    s.grad_low = 0.5;
    s.grad_high = 1.5;
    ExpectAgreement(s);
  }
}

// One row of 18 whose gradOut cancels: 2^24, sixteen 1s, -2^24; input = mean = 0, rstd = 1 and no
// weight, so xh = 0 and gradInput_j = g_j - mean(g), exactly g_j - 16/18. A float32 sum loses the
// 1s next to 2^24 (blocks of 16 in order gave a mean of 1/18, eight times too small for the 1s'
// gradInput of 1/9); kernel.cc's double row sums round the mean once (README.md, "Kernel").
TEST(LayerNormBackwardKernel, RowMeansAreRoundedOnceWhenTheRowCancels) {
  std::vector<double> grad(18, 1.0);
  grad.front() = 0x1p24;
  grad.back() = -0x1p24;
  const Dims shape{1, 18};
  CallBuilder call(FolderOperator());
  call.Tensor("gradOut", DType::kFloat32, shape, grad)
      .Tensor("input", DType::kFloat32, shape, std::vector<double>(18, 0.0))
      .Tensor("mean", DType::kFloat32, Dims{1, 1}, std::vector<double>{0.0})
      .Tensor("rstd", DType::kFloat32, Dims{1, 1}, std::vector<double>{1.0})
      .Param("normalizedShape", Dims{18})
      .Param("outputMask", std::vector<bool>{true, false, false})
      .Zeros("gradInput", DType::kFloat32, shape)
      .Zeros("gradWeight", DType::kFloat32, {18})
      .Zeros("gradBias", DType::kFloat32, {18});
  const OpArgs args = call.Args();
  std::vector<std::byte> workspace(WorkspaceBytes(args) + 1);
  Compute(args, workspace.data());
  const std::vector<double> grad_input = ReadAsDouble(*args.tensor(kGradInput));
  for (size_t j = 0; j < grad.size(); ++j) {
    const double exact = grad[j] - 16.0 / 18.0;
    EXPECT_LE(std::fabs(grad_input[j] - exact), Ulp(exact, DType::kFloat32)) << "element " << j;
  }
}

TEST(LayerNormBackwardKernel, SpecialValuesFollowTheRules) {
  for (DType dtype : kDTypes) {
    for (int special = 0; special < 6; ++special) {
      Case s;
      s.dtype = dtype;
      s.shape = {6, 9};
      CallBuilder call = MakeCall(s);
      auto poke = [&](const char* slot, size_t index, double value) {
        std::vector<double> values = call.tensor(slot).Values();
        values[index] = value;
        call.tensor(slot).Assign(values);
      };
      switch (special) {
        case 0:
          poke("gradOut", 12, kInf);
          poke("gradOut", 31, -kInf);
          break;
        case 1:
          poke("gradOut", 20, kNaN);
          break;
        case 2:
          poke("input", 40, kInf);
          poke("input", 3, -kInf);
          break;
        case 3:
          poke("mean", 2, kNaN);
          poke("rstd", 4, kInf);
          break;
        case 4:
          poke("weight", 5, -kInf);
          break;
        case 5:
          poke("rstd", 1, 0);
          poke("input", 10, kNaN);
          break;
      }
      const auto agreement = RunKernelAgainstReference(FolderOperator(), call, Compute);
      EXPECT_TRUE(agreement.passed())
          << DTypeName(dtype) << " special " << special << ": " << agreement.Describe();
      const auto& rules = agreement.outputs.at("gradInput").rules;
      EXPECT_TRUE(rules.count("layernorm.nonfinite_row")) << special;
      if (special != 4) {
        const auto& column_rules = agreement.outputs.at("gradWeight").rules;
        EXPECT_TRUE(column_rules.count("layernorm.nonfinite_column")) << special;
      }
    }
  }
}

TEST(LayerNormBackwardKernel, NoRowsWriteZerosAndAnEmptyRowWritesNothing) {
  for (DType dtype : kDTypes) {
    Case s;
    s.dtype = dtype;
    s.shape = {0, 5};
    CallBuilder call = MakeCall(s);
    for (const char* out : {"gradWeight", "gradBias"}) {
      call.tensor(out).Assign(std::vector<double>(5, 7.0));
    }
    EXPECT_EQ(SimdWorkspaceBytes(call.Args()), 0u);
    const auto agreement = RunKernelAgainstReference(FolderOperator(), call, Compute);
    EXPECT_TRUE(agreement.passed()) << agreement.Describe();
    for (const char* out : {"gradWeight", "gradBias"}) {
      EXPECT_EQ(call.tensor(out).Values(), std::vector<double>(5, 0.0)) << out;
    }
    Case columns;
    columns.dtype = dtype;
    columns.shape = {4, 0};
    CallBuilder empty = MakeCall(columns);
    const auto none = RunKernelAgainstReference(FolderOperator(), empty, Compute);
    EXPECT_TRUE(none.passed());
  }
}

TEST(LayerNormBackwardKernel, TheToleranceCatchesAWrongFormulaAndATruncatingStore) {
  Case s;
  s.dtype = DType::kFloat16;
  s.shape = {64, 100};
  CallBuilder call = MakeCall(s);
  const OpArgs args = call.Args();
  const ReferenceResult reference = FolderOperator().Reference(args);
  const ReferenceOutput& dx = reference.outputs[kGradInput];
  const OutputTolerance& tol = FolderOperator().Tolerance("gradInput");
  const Tolerance tolerance{tol.ulp, tol.c, DType::kFloat32};
  // Rounded to nearest: passes. Truncated toward zero: every element within 1 ULP, but biased.
  std::vector<double> nearest, truncated;
  for (double v : dx.value) {
    const double r = RoundTo(v, DType::kFloat16);
    nearest.push_back(r);
    truncated.push_back(std::fabs(r) > std::fabs(v)
                            ? NextDown(std::fabs(r), DType::kFloat16) * (v < 0 ? -1 : 1)
                            : r);
  }
  EXPECT_TRUE(CheckOutput(FolderOperator(), dx, nearest, DType::kFloat16, tolerance).passed());
  const OutputCheck biased =
      CheckOutput(FolderOperator(), dx, truncated, DType::kFloat16, tolerance);
  EXPECT_FALSE(biased.passed());
  EXPECT_FALSE(biased.metrics.rounding_bias_ok);
  // gradInput without the xh * mean(gw * xh) term (a plausible kernel bug) fails.
  const std::vector<double> g = call.tensor("gradOut").Values();
  const std::vector<double> rstd = call.tensor("rstd").Values();
  const std::vector<double> w = call.tensor("weight").Values();
  std::vector<double> wrong(dx.value.size());
  for (int r = 0; r < 64; ++r) {
    double sum = 0;
    for (int j = 0; j < 100; ++j) sum += g[r * 100 + j] * w[j];
    for (int j = 0; j < 100; ++j) {
      wrong[r * 100 + j] = RoundTo(rstd[r] * (g[r * 100 + j] * w[j] - sum / 100), s.dtype);
    }
  }
  EXPECT_GT(CheckOutput(FolderOperator(), dx, wrong, DType::kFloat16, tolerance).metrics.failures,
            100);
}

// The share of the c * u * mag term that an output used: the largest error beyond half an ULP of
// the output dtype (the store's own rounding), in units of u * mag. Stays below the c of
// operator.json when the kernel is inside its documented error.
double UsedC(const Operator& op, CallBuilder& call, size_t slot) {
  const OpArgs args = call.Args();
  const ReferenceResult reference = op.Reference(args);
  const ReferenceOutput& expected = reference.outputs[slot];
  const TensorView& view = *args.tensor(slot);
  const std::vector<double> device = ReadAsDouble(view);
  double used = 0;
  for (size_t i = 0; i < device.size(); ++i) {
    if (expected.rule[i] != kNoRule || expected.mag[i] == 0) continue;
    const double excess =
        std::fabs(device[i] - expected.value[i]) - 0.5 * Ulp(expected.value[i], view.dtype);
    used = std::max(used, excess / (UnitRoundoff(DType::kFloat32) * expected.mag[i]));
  }
  return used;
}

TEST(LayerNormBackwardKernel, MaxUlpOnRandomInputsPerDTypeAndOutput) {
  for (DType dtype : kDTypes) {
    for (bool same : {false, true}) {
      if (same && dtype == DType::kFloat32) continue;
      Case s;
      s.dtype = dtype;
      s.shape = {256, 1000};
      s.stat_dtype = s.param_dtype = same ? dtype : DType::kFloat32;
      s.seed = 99;
      CallBuilder call = MakeCall(s);
      const auto agreement = RunKernelAgainstReference(FolderOperator(), call, Compute);
      EXPECT_TRUE(agreement.passed()) << Describe(s) << ": " << agreement.Describe();
      for (const auto& [output, check] : agreement.outputs) {
        const size_t slot = *FolderOperator().TensorIndex(output);
        const double used = UsedC(FolderOperator(), call, slot);
        const std::string key = "max_ulp_" + std::string(DTypeName(dtype)) + "_" + output +
                                (same ? "_params_same" : "_params_float32");
        RecordProperty(key, std::to_string(check.metrics.max_ulp));
        RecordProperty("used_c_" + key.substr(8), std::to_string(used));
        std::cout << "[ LNB ulp  ] " << DTypeName(dtype) << " params "
                  << (same ? DTypeName(dtype) : "float32") << " " << output << ": max ulp "
                  << check.metrics.max_ulp << ", mean ulp " << check.metrics.mean_ulp << ", used c "
                  << used << " of " << FolderOperator().Tolerance(output).c << "\n";
        EXPECT_LT(used, FolderOperator().Tolerance(output).c / 4) << key;
      }
    }
  }
}

TEST(LayerNormBackwardKernel, UsedCOfTheLongSumsStaysInsideTheDocumentedC) {
  for (const Dims& shape : {Dims{65536, 8}, Dims{4, 65536}}) {
    Case s;
    s.shape = shape;
    s.grad_low = 0.5;  // same sign: the partial sums only grow
    s.grad_high = 1.5;
    CallBuilder call = MakeCall(s);
    ComputeInPlace(call);
    for (size_t slot : {kGradInput, kGradWeight, kGradBias}) {
      const double used = UsedC(FolderOperator(), call, slot);
      std::cout << "[ LNB long ] " << FormatDims(shape) << " "
                << FolderOperator().tensors()[slot].name << " used c " << used << "\n";
      EXPECT_LT(used, FolderOperator().Tolerance(FolderOperator().tensors()[slot].name).c) << slot;
    }
  }
}

}  // namespace
}  // namespace aclnn_check::layer_norm_backward
