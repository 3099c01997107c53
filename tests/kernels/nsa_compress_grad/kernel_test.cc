// The portable float32 kernel (kernel.cc, `Compute`, which the cpu provider runs on the views its
// SIMD kernel does not take) on every layout, contiguous included, against the float64 reference:
// random inputs in every dtype and layout, sizes that are not multiples of 8 or 16, every special
// value, long sums, and kernels that are wrong on purpose (which must fail).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <random>

#include "nsa_compress_grad/nsa_compress_grad.h"
#include "support/kernel_agreement.h"
#include "support/operator_named.h"

namespace aclnn_check::nsa_compress_grad {
namespace {

using testing::CallBuilder;
using testing::RunKernelAgainstReference;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using testing::FolderOperator;

struct Case {
  std::optional<std::vector<int64_t>> ends;  // nullopt: a null actSeqLen of `tokens` rows
  int64_t tokens, heads, head_dim, block_size, stride;

  // T', counted window by window (independently of the folder's helpers).
  int64_t Windows() const {
    const std::vector<int64_t> all = ends ? *ends : std::vector<int64_t>{tokens};
    int64_t count = 0, begin = 0;
    for (int64_t end : all) {
      for (int64_t first = begin; first + block_size <= end; first += stride) ++count;
      begin = end;
    }
    return count;
  }
  size_t GradSize() const { return static_cast<size_t>(Windows() * heads * head_dim); }
  size_t InputSize() const { return static_cast<size_t>(tokens * heads * head_dim); }
  size_t WeightSize() const { return static_cast<size_t>(block_size * heads); }
};

struct Data {
  std::vector<double> grad, input, weight;
};

Data Random(const Case& c, uint64_t seed, bool positive = false) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_real_distribution<double> uniform(positive ? 0 : -1, 1);
  Data d;
  for (size_t k = 0; k < c.GradSize(); ++k)
    d.grad.push_back(positive ? uniform(random) : normal(random));
  for (size_t k = 0; k < c.InputSize(); ++k) {
    d.input.push_back(positive ? uniform(random) : normal(random));
  }
  for (size_t k = 0; k < c.WeightSize(); ++k) d.weight.push_back(uniform(random));
  return d;
}

CallBuilder Build(const Case& c, const Data& d, DType dtype, Layout layout = {}) {
  CallBuilder call(FolderOperator());
  call.Tensor("outputGrad", dtype, {c.Windows(), c.heads, c.head_dim}, d.grad, layout)
      .Tensor("input", dtype, {c.tokens, c.heads, c.head_dim}, d.input, layout)
      .Tensor("weight", dtype, {c.block_size, c.heads}, d.weight, layout)
      .Zeros("inputGrad", dtype, {c.tokens, c.heads, c.head_dim}, layout)
      .Zeros("weightGrad", dtype, {c.block_size, c.heads}, layout)
      .Param("compressBlockSize", c.block_size)
      .Param("compressStride", c.stride)
      .Param("actSeqLenType", int64_t{0})
      .Param("layout", std::string("TND"));
  if (c.ends) call.Param("actSeqLen", *c.ends);
  return call;
}

// Max ULP per "dtype output" over the random tests, printed for the report.
std::map<std::string, double>& MaxUlp() {
  static std::map<std::string, double> table;
  return table;
}

void Record(const testing::KernelAgreement& agreement, DType dtype) {
  for (const auto& [name, check] : agreement.outputs) {
    double& worst = MaxUlp()[std::string(DTypeName(dtype)) + " " + name];
    worst = std::max(worst, check.metrics.max_ulp);
  }
}

void ExpectAgreement(const Case& c, const Data& d, DType dtype, const char* layout,
                     bool record = true) {
  CallBuilder call = Build(c, d, dtype, *Layout::Parse(layout));
  ASSERT_TRUE(FolderOperator().Validate(call.Args(), Product::kA2).ok())
      << FolderOperator().Validate(call.Args(), Product::kA2).message;
  const auto agreement = RunKernelAgainstReference(FolderOperator(), call, Compute);
  EXPECT_EQ(agreement.outputs.size(), 2u);
  EXPECT_TRUE(agreement.passed()) << DTypeName(dtype) << " " << layout << ": "
                                  << agreement.Describe();
  if (record) Record(agreement, dtype);
}

const Case kDefault{std::vector<int64_t>{0, 128, 272}, 272, 4, 32, 32, 16};

TEST(NsaCompressGradKernel, AgreesWithReferenceOnRandomInputsInEveryDTypeAndLayout) {
  const Data data = Random(kDefault, 11);
  for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
    for (const char* layout : {"contiguous", "offset:3", "strided:2", "transposed"}) {
      ExpectAgreement(kDefault, data, dtype, layout);
    }
  }
}

TEST(NsaCompressGradKernel, SizesThatAreNotMultiplesOf8Or16) {
  const std::vector<Case> cases = {
      // N = 3, D = 48, an empty and a short middle sequence, tails of odd length.
      {std::vector<int64_t>{0, 37, 37, 50, 211}, 211, 3, 48, 48, 32},
      // Null actSeqLen, T = 203, block 128 / stride 16: eight windows overlap a row.
      {std::nullopt, 203, 5, 16, 128, 16},
      // N = 1, D = 80, block 64 / stride 48, a short first sequence.
      {std::vector<int64_t>{19, 100, 333}, 333, 1, 80, 64, 48},
      // N = 7, D = 16, many short sequences.
      {std::vector<int64_t>{33, 66, 99, 133, 167}, 167, 7, 16, 32, 16},
  };
  uint64_t seed = 100;
  for (const Case& c : cases) {
    const Data data = Random(c, ++seed);
    for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
      for (const char* layout : {"contiguous", "offset:5", "strided:3", "transposed"}) {
        ExpectAgreement(c, data, dtype, layout);
      }
    }
  }
}

TEST(NsaCompressGradKernel, LongSumsOfPositiveTermsStayInsideTheBound) {
  // weightGrad sums T'*D = 255*256 = 65280 positive products: no cancellation, so mag ~ |ref|
  // and the float32 summation error is seen at full size.
  const Case c{std::vector<int64_t>{4096}, 4096, 1, 256, 32, 16};
  const Data data = Random(c, 7, /*positive=*/true);
  for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
    CallBuilder call = Build(c, data, dtype);
    const auto agreement = RunKernelAgainstReference(FolderOperator(), call, Compute);
    EXPECT_TRUE(agreement.passed()) << agreement.Describe();
    EXPECT_LE(agreement.outputs.at("weightGrad").metrics.max_ulp, 1.0) << DTypeName(dtype);
    Record(agreement, dtype);
  }
}

TEST(NsaCompressGradKernel, SpecialValuesFollowTheRules) {
  const Case c{std::vector<int64_t>{0, 64, 100}, 100, 2, 16, 32, 16};
  for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
    Data d = Random(c, 31);
    d.grad[0] = kNaN;
    d.grad[37] = kInf;
    d.grad[70] = -kInf;
    d.grad[3 * 32 + 5] = kInf;  // window 3 (first of sequence 2), head 0, e 5
    d.input[17 * 32 + 16 + 2] = -kInf;
    d.input[40 * 32 + 9] = kNaN;
    d.weight[2 * 2 + 1] = kInf;  // weight[2, 1]
    d.weight[0] = 0;             // 0 * inf where window 0 meets an infinite outputGrad
    d.grad[1] = kInf;
    CallBuilder call = Build(c, d, dtype);
    const ReferenceResult reference = FolderOperator().Reference(call.Args());
    const RuleTag special = FolderOperator().Tag("nsa.special");
    int64_t tagged = 0;
    for (size_t slot : {kInputGrad, kWeightGrad}) {
      for (RuleTag tag : reference.outputs[slot].rule) tagged += tag == special;
    }
    EXPECT_GT(tagged, 0);
    const auto agreement = RunKernelAgainstReference(FolderOperator(), call, Compute);
    EXPECT_TRUE(agreement.passed()) << DTypeName(dtype) << ": " << agreement.Describe();
    for (const auto& [name, check] : agreement.outputs) {
      if (check.rules.contains("nsa.special")) {
        EXPECT_EQ(check.rules.at("nsa.special").held, check.rules.at("nsa.special").applied);
      }
    }
  }
}

TEST(NsaCompressGradKernel, Float32OverflowOfBFloat16IsAccepted) {
  // Products of 2^70 * 2^60 = 2^130 overflow float32; the kernel gives inf or NaN where the
  // exact weightGrad is finite, which nsa.fp32_overflow accepts.
  const Case c{std::vector<int64_t>{48}, 48, 1, 16, 32, 16};
  Data d = Random(c, 5);
  for (size_t k = 0; k < d.grad.size(); ++k) d.grad[k] = 0x1p70;
  // Rows 0..15 and 32..47 positive, 16..31 negative: the two windows' terms cancel exactly,
  // weightGrad is 0 while each product is 2^130.
  for (size_t k = 0; k < d.input.size(); ++k) d.input[k] = (k / 16 / 16) % 2 ? -0x1p60 : 0x1p60;
  CallBuilder call = Build(c, d, DType::kBFloat16);
  const auto agreement = RunKernelAgainstReference(FolderOperator(), call, Compute);
  EXPECT_TRUE(agreement.passed()) << agreement.Describe();
  const OutputCheck& weight_grad = agreement.outputs.at("weightGrad");
  ASSERT_TRUE(weight_grad.rules.contains("nsa.fp32_overflow"));
  EXPECT_EQ(weight_grad.rules.at("nsa.fp32_overflow").applied, 32);
  EXPECT_EQ(FolderOperator().Reference(call.Args()).outputs[kWeightGrad].value[0], 0.0);
}

TEST(NsaCompressGradKernel, WorkspaceHoldsTheFloat32AccumulatorsAndNeedsNoZeroing) {
  const Data data = Random(kDefault, 3);
  CallBuilder call = Build(kDefault, data, DType::kFloat16);
  const OpArgs args = call.Args();
  // inputGrad [272, 4, 32] and weightGrad [32, 4] in float32.
  EXPECT_EQ(WorkspaceBytes(args), (272u * 4 * 32 + 32 * 4) * 4);
  // A workspace full of NaN bytes: the kernel initialises what it reads.
  std::vector<std::byte> workspace(WorkspaceBytes(args), std::byte{0xFF});
  Compute(args, workspace.data());
  const ReferenceResult reference = FolderOperator().Reference(args);
  for (size_t slot : {kInputGrad, kWeightGrad}) {
    const OutputTolerance& tol = FolderOperator().Tolerance(FolderOperator().tensors()[slot].name);
    const OutputCheck check =
        CheckOutput(FolderOperator(), reference.outputs[slot], ReadAsDouble(*args.tensor(slot)),
                    DType::kFloat16, {tol.ulp, tol.c, DType::kFloat32});
    EXPECT_TRUE(check.passed()) << slot;
  }
}

// The tolerance is not so loose that wrong kernels pass.
TEST(NsaCompressGradKernel, WrongKernelsFail) {
  const Data data = Random(kDefault, 17);
  CallBuilder call = Build(kDefault, data, DType::kFloat16);
  const OpArgs args = call.Args();
  const ReferenceResult reference = FolderOperator().Reference(args);
  const OutputTolerance& ig_tol = FolderOperator().Tolerance("inputGrad");
  const OutputTolerance& wg_tol = FolderOperator().Tolerance("weightGrad");
  const Tolerance ig_bound{ig_tol.ulp, ig_tol.c, DType::kFloat32};
  const Tolerance wg_bound{wg_tol.ulp, wg_tol.c, DType::kFloat32};

  // Truncation toward zero on store: every error is under 1 ULP, the bias rule catches it.
  const ReferenceOutput& ig = reference.outputs[kInputGrad];
  std::vector<double> truncated(ig.value.size());
  for (size_t k = 0; k < truncated.size(); ++k) {
    double v = RoundTo(ig.value[k], DType::kFloat16);
    if (std::fabs(v) > std::fabs(ig.value[k])) {
      v = v > 0 ? NextDown(v, DType::kFloat16) : NextUp(v, DType::kFloat16);
    }
    truncated[k] = v;
  }
  const OutputCheck truncation =
      CheckOutput(FolderOperator(), ig, truncated, DType::kFloat16, ig_bound);
  EXPECT_FALSE(truncation.passed());
  EXPECT_FALSE(truncation.metrics.rounding_bias_ok);

  // Overwriting instead of accumulating where windows overlap: inputGrad keeps only the last
  // window's term.
  std::vector<double> overwritten(ig.value.size());
  {
    std::vector<double> grad = ReadAsDouble(*args.tensor(kOutputGrad));
    std::vector<double> weight = ReadAsDouble(*args.tensor(kWeight));
    const int64_t nd = 4 * 32;
    // sequence 1 = rows 0..127, windows 0..6; sequence 2 = rows 128..271, windows 7..14
    for (int64_t w = 0; w < 15; ++w) {
      const int64_t first = w < 7 ? 16 * w : 128 + 16 * (w - 7);
      for (int64_t j = 0; j < 32; ++j) {
        for (int64_t k = 0; k < nd; ++k) {
          overwritten[(first + j) * nd + k] =
              RoundTo(weight[j * 4 + k / 32] * grad[w * nd + k], DType::kFloat16);
        }
      }
    }
  }
  EXPECT_FALSE(CheckOutput(FolderOperator(), ig, overwritten, DType::kFloat16, ig_bound).passed());

  // Uncovered rows left with garbage instead of 0: with ends {0, 120, 272} sequence 1 has six
  // windows (rows 0..111), so rows 112..119 are a tail.
  const Case tail{std::vector<int64_t>{0, 120, 272}, 272, 4, 32, 32, 16};
  CallBuilder tail_call = Build(tail, Random(tail, 18), DType::kFloat16);
  const ReferenceOutput tail_ig = FolderOperator().Reference(tail_call.Args()).outputs[kInputGrad];
  std::vector<double> garbage(tail_ig.value.size());
  for (size_t k = 0; k < garbage.size(); ++k) {
    garbage[k] = RoundTo(tail_ig.value[k], DType::kFloat16);
  }
  for (size_t k = 112 * 128; k < 120 * 128; ++k) {
    ASSERT_EQ(tail_ig.rule[k], FolderOperator().Tag("nsa.uncovered")) << k;
    garbage[k] = 0.25;  // a stale value in a workspace that was not zeroed
  }
  const OutputCheck dirty =
      CheckOutput(FolderOperator(), tail_ig, garbage, DType::kFloat16, ig_bound);
  EXPECT_FALSE(dirty.passed());
  EXPECT_LT(dirty.rules.at("nsa.uncovered").held, dirty.rules.at("nsa.uncovered").applied);

  // weightGrad missing the last window of each sequence.
  const ReferenceOutput& wg = reference.outputs[kWeightGrad];
  std::vector<double> grad = ReadAsDouble(*args.tensor(kOutputGrad));
  std::vector<double> input = ReadAsDouble(*args.tensor(kInput));
  std::vector<double> missing(wg.value.size());
  for (int64_t j = 0; j < 32; ++j) {
    for (int64_t n = 0; n < 4; ++n) {
      double drop = 0;
      for (const auto& [w, first] : {std::pair<int64_t, int64_t>{6, 96}, {14, 240}}) {
        for (int64_t e = 0; e < 32; ++e) {
          drop += grad[(w * 4 + n) * 32 + e] * input[((first + j) * 4 + n) * 32 + e];
        }
      }
      missing[j * 4 + n] = RoundTo(wg.value[j * 4 + n] - drop, DType::kFloat16);
    }
  }
  EXPECT_FALSE(CheckOutput(FolderOperator(), wg, missing, DType::kFloat16, wg_bound).passed());
}

TEST(NsaCompressGradKernel, ReportsTheMaxUlpPerDTypeAndOutput) {
  // Runs last in this file: the random tests above filled the table.
  const Data data = Random(kDefault, 99);
  for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
    CallBuilder call = Build(kDefault, data, dtype);
    Record(RunKernelAgainstReference(FolderOperator(), call, Compute), dtype);
  }
  for (const auto& [key, ulp] : MaxUlp()) {
    std::cout << "[ max ulp ] NsaCompressGrad cpu kernel " << key << ": " << ulp << "\n";
    std::string property = "max_ulp_" + key;
    std::replace(property.begin(), property.end(), ' ', '_');
    ::testing::Test::RecordProperty(property, std::to_string(ulp));
  }
  EXPECT_EQ(MaxUlp().size(), 4u);
}

}  // namespace
}  // namespace aclnn_check::nsa_compress_grad
