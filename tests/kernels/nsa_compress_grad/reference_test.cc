// The float64 reference against a forward NSA compression written here, differentiated
// numerically, against small cases computed by hand, and against every rule row of
// kernels/nsa_compress_grad/README.md.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <random>

#include "check/output_check.h"
#include "nsa_compress_grad/nsa_compress_grad.h"
#include "support/call_builder.h"
#include "support/operator_named.h"

namespace aclnn_check::nsa_compress_grad {
namespace {

using testing::CallBuilder;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using testing::FolderOperator;

// One problem, written independently of the folder's helpers.
struct Problem {
  std::optional<std::vector<int64_t>> ends;  // nullopt: a null actSeqLen
  int64_t tokens, heads, head_dim, block_size, stride;
  std::vector<double> grad, input, weight;  // [T', N, D], [T, N, D], [l, N]

  // (first row, length) of every sequence.
  std::vector<std::pair<int64_t, int64_t>> Spans() const {
    std::vector<std::pair<int64_t, int64_t>> spans;
    if (!ends) return {{0, tokens}};
    int64_t begin = 0;
    for (int64_t end : *ends) {
      spans.emplace_back(begin, end - begin);
      begin = end;
    }
    return spans;
  }
  int64_t Windows(int64_t length) const {
    int64_t count = 0;
    for (int64_t first = 0; first + block_size <= length; first += stride) ++count;
    return count;
  }
  int64_t TotalWindows() const {
    int64_t total = 0;
    for (const auto& span : Spans()) total += Windows(span.second);
    return total;
  }
};

// Forward: out[o_b + i, n, e] = sum_j weight[j, n] * input[s_b + i*stride + j, n, e].
std::vector<double> Forward(const Problem& p, const std::vector<double>& input,
                            const std::vector<double>& weight) {
  const int64_t n_size = p.heads, d_size = p.head_dim;
  std::vector<double> out(static_cast<size_t>(p.TotalWindows() * n_size * d_size), 0.0);
  int64_t window = 0;
  for (const auto& [first, length] : p.Spans()) {
    for (int64_t i = 0; i < p.Windows(length); ++i, ++window) {
      for (int64_t n = 0; n < n_size; ++n) {
        for (int64_t e = 0; e < d_size; ++e) {
          double sum = 0;
          for (int64_t j = 0; j < p.block_size; ++j) {
            sum += weight[j * n_size + n] *
                   input[((first + i * p.stride + j) * n_size + n) * d_size + e];
          }
          out[(window * n_size + n) * d_size + e] = sum;
        }
      }
    }
  }
  return out;
}

// The loss whose gradient the operator computes: sum of outputGrad * forward.
double Loss(const Problem& p, const std::vector<double>& input, const std::vector<double>& weight) {
  const std::vector<double> out = Forward(p, input, weight);
  double loss = 0;
  for (size_t k = 0; k < out.size(); ++k) loss += p.grad[k] * out[k];
  return loss;
}

CallBuilder Build(const Problem& p, DType dtype = DType::kFloat32, Layout layout = {}) {
  const int64_t windows = p.TotalWindows();
  CallBuilder call(FolderOperator());
  call.Tensor("outputGrad", dtype, {windows, p.heads, p.head_dim}, p.grad, layout)
      .Tensor("input", dtype, {p.tokens, p.heads, p.head_dim}, p.input, layout)
      .Tensor("weight", dtype, {p.block_size, p.heads}, p.weight, layout)
      .Zeros("inputGrad", dtype, {p.tokens, p.heads, p.head_dim}, layout)
      .Zeros("weightGrad", dtype, {p.block_size, p.heads}, layout)
      .Param("compressBlockSize", p.block_size)
      .Param("compressStride", p.stride)
      .Param("actSeqLenType", int64_t{0});
  if (p.ends) call.Param("actSeqLen", *p.ends);
  return call;
}

ReferenceResult RunReference(const Problem& p, DType dtype = DType::kFloat32, Layout layout = {}) {
  CallBuilder call = Build(p, dtype, layout);
  return FolderOperator().Reference(call.Args());
}

// Values that float16, bfloat16 and float32 hold exactly: multiples of 1/16 in [-4, 4).
std::vector<double> Exact(size_t n, std::mt19937_64& random) {
  std::uniform_int_distribution<int> dist(-64, 63);
  std::vector<double> values(n);
  for (double& v : values) v = dist(random) / 16.0;
  return values;
}

Problem RandomProblem(std::optional<std::vector<int64_t>> ends, int64_t tokens, int64_t heads,
                      int64_t head_dim, int64_t block_size, int64_t stride, uint64_t seed) {
  Problem p{std::move(ends), tokens, heads, head_dim, block_size, stride, {}, {}, {}};
  std::mt19937_64 random(seed);
  p.grad = Exact(static_cast<size_t>(p.TotalWindows() * heads * head_dim), random);
  p.input = Exact(static_cast<size_t>(tokens * heads * head_dim), random);
  p.weight = Exact(static_cast<size_t>(block_size * heads), random);
  return p;
}

std::vector<std::string> CallRuleIds(const ReferenceResult& result) {
  std::vector<std::string> ids;
  for (RuleTag tag : result.call_rules) ids.push_back(FolderOperator().RuleOfTag(tag).id);
  return ids;
}

void ExpectMatchesFiniteDifferences(const Problem& p) {
  const ReferenceResult result = RunReference(p);
  const ReferenceOutput& input_grad = result.outputs[kInputGrad];
  const ReferenceOutput& weight_grad = result.outputs[kWeightGrad];
  ASSERT_EQ(input_grad.value.size(), p.input.size());
  ASSERT_EQ(weight_grad.value.size(), p.weight.size());
  const double h = 0.5;  // the loss is linear in each input: central differences are exact
  for (size_t k = 0; k < p.input.size(); ++k) {
    std::vector<double> up = p.input, down = p.input;
    up[k] += h;
    down[k] -= h;
    const double numeric = (Loss(p, up, p.weight) - Loss(p, down, p.weight)) / (2 * h);
    ASSERT_NEAR(input_grad.value[k], numeric, 1e-9 * (1 + std::fabs(numeric))) << "input " << k;
  }
  for (size_t k = 0; k < p.weight.size(); ++k) {
    std::vector<double> up = p.weight, down = p.weight;
    up[k] += h;
    down[k] -= h;
    const double numeric = (Loss(p, p.input, up) - Loss(p, p.input, down)) / (2 * h);
    ASSERT_NEAR(weight_grad.value[k], numeric, 1e-9 * (1 + std::fabs(numeric))) << "weight " << k;
  }
}

TEST(NsaCompressGradReference, MatchesFiniteDifferenceOfForwardWithOverlappingWindows) {
  // Sequences 0 (empty), 37, 0 (repeated end), 59, 19 rows; block 32, stride 16.
  ExpectMatchesFiniteDifferences(
      RandomProblem(std::vector<int64_t>{0, 37, 37, 96, 115}, 115, 2, 16, 32, 16, 3));
}

TEST(NsaCompressGradReference, MatchesFiniteDifferenceWithNullActSeqLenAndMaximalOverlap) {
  // One sequence of 150 rows, block 64, stride 16: up to four windows per row, a tail of 6.
  ExpectMatchesFiniteDifferences(RandomProblem(std::nullopt, 150, 3, 16, 64, 16, 5));
}

TEST(NsaCompressGradReference, MatchesFiniteDifferenceWithSmallNonAlignedParameters) {
  // The reference is the mathematics, valid for any positive block and stride (validation
  // restricts them): block 5, stride 3 and block 3, stride 4 (gaps between windows).
  ExpectMatchesFiniteDifferences(RandomProblem(std::vector<int64_t>{11, 30}, 30, 2, 3, 5, 3, 7));
  ExpectMatchesFiniteDifferences(RandomProblem(std::vector<int64_t>{4, 23}, 23, 1, 2, 3, 4, 9));
}

TEST(NsaCompressGradReference, HandComputedSingleSequence) {
  // T = 4, N = D = 1, block 2, stride 1: windows rows {0,1}, {1,2}, {2,3}.
  Problem p{std::vector<int64_t>{4}, 4, 1, 1, 2, 1, {1, 10, 100}, {1, 2, 3, 4}, {2, 3}};
  const ReferenceResult result = RunReference(p);
  const ReferenceOutput& ig = result.outputs[kInputGrad];
  EXPECT_EQ(ig.value, (std::vector<double>{2, 23, 230, 300}));  // 2*1, 3*1+2*10, 3*10+2*100, 3*100
  EXPECT_EQ(ig.mag, (std::vector<double>{2, 23, 230, 300}));
  const ReferenceOutput& wg = result.outputs[kWeightGrad];
  EXPECT_EQ(wg.value, (std::vector<double>{321, 432}));  // 1*1+10*2+100*3, 1*2+10*3+100*4
  EXPECT_EQ(wg.mag, (std::vector<double>{321, 432}));
  const RuleTag overlap = FolderOperator().Tag("nsa.overlap");
  EXPECT_EQ(ig.rule, (std::vector<RuleTag>{kNoRule, overlap, overlap, kNoRule}));
  EXPECT_TRUE(result.call_rules.empty());
}

TEST(NsaCompressGradReference, HandComputedSequencesWithLeadingZeroShortSequenceAndTail) {
  // ends {0, 3, 4, 7}, block 2, stride 1, N = 1, D = 2: sequence 1 = rows 0..2 (windows {0,1},
  // {1,2}), sequence 2 = row 3 (too short), sequence 3 = rows 4..6 (windows {4,5}, {5,6}).
  Problem p{std::vector<int64_t>{0, 3, 4, 7},
            7,
            1,
            2,
            2,
            1,
            {1, 2, 3, 4, 5, 6, 7, 8},
            {1, 10, 2, 20, 3, 30, 4, 40, 5, 50, 6, 60, 7, 70},
            {1, -2}};
  const ReferenceResult result = RunReference(p);
  const ReferenceOutput& ig = result.outputs[kInputGrad];
  EXPECT_EQ(ig.value, (std::vector<double>{1, 2, 1, 0, -6, -8, 0, 0, 5, 6, -3, -4, -14, -16}));
  EXPECT_EQ(ig.mag, (std::vector<double>{1, 2, 5, 8, 6, 8, 0, 0, 5, 6, 17, 20, 14, 16}));
  const ReferenceOutput& wg = result.outputs[kWeightGrad];
  // j = 0: windows start at rows 0, 1, 4, 5: 21 + 86 + 325 + 522; j = 1: rows 1, 2, 5, 6.
  EXPECT_EQ(wg.value, (std::vector<double>{954, 1170}));
  const RuleTag uncovered = FolderOperator().Tag("nsa.uncovered");
  EXPECT_EQ(ig.rule[6], uncovered);
  EXPECT_EQ(ig.rule[7], uncovered);
  EXPECT_EQ(ig.rule[2], FolderOperator().Tag("nsa.overlap"));
  EXPECT_EQ(ig.rule[0], kNoRule);
  EXPECT_EQ(CallRuleIds(result),
            (std::vector<std::string>{"nsa.leading_zero", "nsa.short_sequence"}));
}

TEST(NsaCompressGradReference, UncoveredRowsAreZeroWhateverTheInputs) {
  // block 32, stride 16, one sequence of 70 rows: windows end at row 63; rows 64..69 uncovered.
  Problem p = RandomProblem(std::vector<int64_t>{70}, 70, 2, 16, 32, 16, 13);
  for (size_t k = 64 * 32; k < p.input.size(); ++k) p.input[k] = kNaN;  // not read by inputGrad
  const ReferenceOutput ig = RunReference(p).outputs[kInputGrad];
  const RuleTag uncovered = FolderOperator().Tag("nsa.uncovered");
  for (size_t k = 0; k < ig.value.size(); ++k) {
    const bool tail = k >= 64 * 32;
    EXPECT_EQ(ig.rule[k] == uncovered, tail) << k;
    if (tail) {
      EXPECT_EQ(ig.value[k], 0.0) << k;
      EXPECT_EQ(ig.mag[k], 0.0) << k;
    }
  }
  EXPECT_EQ(FolderOperator().FindRule("nsa.uncovered")->expect, "0");
}

TEST(NsaCompressGradReference, WindowsPastAShortOutputGradAddNothing) {
  // Validation rejects an outputGrad with fewer rows than windows; the reference must still use
  // only the rows it has. T = 10, block 4, stride 2: windows cover rows [0, 4), [2, 6), [4, 8),
  // [6, 10); outputGrad holds the first three.
  Problem p = RandomProblem(std::nullopt, 10, 2, 3, 4, 2, 7);
  const size_t kept = 3 * 2 * 3;
  CallBuilder call(FolderOperator());
  call.Tensor("outputGrad", DType::kFloat32, {3, 2, 3},
              std::vector<double>(p.grad.begin(), p.grad.begin() + kept))
      .Tensor("input", DType::kFloat32, {10, 2, 3}, p.input)
      .Tensor("weight", DType::kFloat32, {4, 2}, p.weight)
      .Zeros("inputGrad", DType::kFloat32, {10, 2, 3})
      .Zeros("weightGrad", DType::kFloat32, {4, 2})
      .Param("compressBlockSize", int64_t{4})
      .Param("compressStride", int64_t{2})
      .Param("actSeqLenType", int64_t{0});
  const ReferenceResult shorter = FolderOperator().Reference(call.Args());
  // The same problem with the fourth window's gradient zero: the terms it adds are all zero.
  std::fill(p.grad.begin() + kept, p.grad.end(), 0.0);
  const ReferenceResult zeroed = RunReference(p);
  const ReferenceOutput& ig = shorter.outputs[kInputGrad];
  for (size_t k = 0; k < ig.value.size(); ++k)
    EXPECT_EQ(ig.value[k], zeroed.outputs[kInputGrad].value[k]) << k;
  EXPECT_EQ(shorter.outputs[kWeightGrad].value, zeroed.outputs[kWeightGrad].value);
  // Rows 8 and 9 only the fourth window covers; rows 6 and 7 only the third now does.
  for (size_t k = 0; k < ig.rule.size(); ++k) {
    const size_t row = k / 6;
    const RuleTag expected = row >= 8                ? FolderOperator().Tag("nsa.uncovered")
                             : (row >= 2 && row < 6) ? FolderOperator().Tag("nsa.overlap")
                                                     : kNoRule;
    EXPECT_EQ(ig.rule[k], expected) << k;
  }
}

TEST(NsaCompressGradReference, SpecialValuesFollowIeeeArithmetic) {
  // T = 4, N = 1, D = 2, block 2, stride 1 (windows rows {0,1}, {1,2}, {2,3}).
  Problem p{std::vector<int64_t>{4},      4,     1, 2, 2, 1,
            {kNaN, 1, kInf, 2, -kInf, 0},           // window 0 e0 NaN; windows 1, 2 e0 +inf, -inf
            {1, 1, 1, 1, 1, 1, 1, 1},     {0, 1}};  // weight[0] = 0: 0 * inf is NaN
  const ReferenceResult result = RunReference(p);
  const ReferenceOutput& ig = result.outputs[kInputGrad];
  const RuleTag special = FolderOperator().Tag("nsa.special");
  // row 0: w0*g0 = 0*NaN; row 1: w1*g0 + w0*g1 = NaN + 0*inf; row 2: w1*g1 + w0*g2 = inf + 0*-inf
  // row 3: w1*g2 = -inf. e1: finite everywhere.
  EXPECT_TRUE(std::isnan(ig.value[0]));
  EXPECT_TRUE(std::isnan(ig.value[2]));
  EXPECT_TRUE(std::isnan(ig.value[4]));
  EXPECT_EQ(ig.value[6], -kInf);
  for (size_t row = 0; row < 4; ++row) EXPECT_EQ(ig.rule[2 * row], special) << row;
  EXPECT_EQ(ig.value[3], 1.0 + 0.0);  // row 1 e1: w1*g0[1] + w0*g1[1] = 1 + 0
  EXPECT_NE(ig.rule[3], special);
  const ReferenceOutput& wg = result.outputs[kWeightGrad];
  // weightGrad e0 terms: NaN*1, inf*1, -inf*1: NaN for both j.
  EXPECT_TRUE(std::isnan(wg.value[0]));
  EXPECT_TRUE(std::isnan(wg.value[1]));
  EXPECT_EQ(wg.rule[0], special);

  // +inf alone keeps its sign; +inf + -inf is NaN.
  Problem q{std::vector<int64_t>{2}, 2, 1, 1, 2, 1, {kInf}, {1, -1}, {1, 1}};
  const ReferenceResult r = RunReference(q);
  EXPECT_EQ(r.outputs[kInputGrad].value, (std::vector<double>{kInf, kInf}));
  EXPECT_EQ(r.outputs[kWeightGrad].value[0], kInf);   // inf * 1
  EXPECT_EQ(r.outputs[kWeightGrad].value[1], -kInf);  // inf * -1
  Problem s{std::vector<int64_t>{3}, 3, 1, 1, 2, 1, {kInf, kInf}, {1, 1, -1}, {1, 1}};
  EXPECT_TRUE(std::isnan(RunReference(s).outputs[kWeightGrad].value[1]));  // inf*1 + inf*-1
}

TEST(NsaCompressGradReference, Float32OverflowIsAcceptedAsInfOrNaN) {
  // bfloat16 inputs of 2^70 and 2^60: products of 2^130 overflow float32 but not the result
  // after cancellation.
  Problem p{std::vector<int64_t>{3}, 3, 1, 1, 2, 1, {0x1p70, 0x1p70}, {0x1p60, -0x1p60, 1}, {1, 1}};
  const ReferenceResult result = RunReference(p, DType::kBFloat16);
  const ReferenceOutput& wg = result.outputs[kWeightGrad];
  // weightGrad[0] = 2^130 - 2^130 = 0, weightGrad[1] = -2^130 + 2^70.
  EXPECT_EQ(wg.value[0], 0.0);
  EXPECT_EQ(wg.mag[0], 0x1p131);
  const RuleTag overflow = FolderOperator().Tag("nsa.fp32_overflow");
  EXPECT_EQ(wg.rule[0], overflow);
  EXPECT_EQ(wg.rule[1], overflow);
  EXPECT_EQ(FolderOperator().FindRule("nsa.fp32_overflow")->expect, "ref|nan|inf|-inf");
  // inputGrad terms are 2^70: far from float32's range.
  for (RuleTag tag : result.outputs[kInputGrad].rule) EXPECT_NE(tag, overflow);
}

TEST(NsaCompressGradReference, AnOverflowingWeightGradIsDecidedByTheBoundNotByItsRounding) {
  // The report's nsa_fp32_overflow case on A2: bfloat16 terms 2^152 - 2^152 + 2^129. The exact
  // weightGrad[0] = 2^129 rounds to bfloat16 inf, but mag (2^153) puts the bound far beyond it, so
  // 0 (a double accumulation that absorbed the small term) is accepted as well as inf or NaN.
  Problem p{std::vector<int64_t>{4}, 4, 1, 1, 2, 1, {0x1p80, 0x1p80, 0x1p70},
            {0x1p72, -0x1p72, 0x1p59, 0}, {1, 1}};
  const ReferenceOutput wg = RunReference(p, DType::kBFloat16).outputs[kWeightGrad];
  ASSERT_EQ(wg.value[0], 0x1p129);
  ASSERT_EQ(wg.rule[0], FolderOperator().Tag("nsa.fp32_overflow"));
  const OutputTolerance& tol = FolderOperator().Tolerance("weightGrad");
  for (double device : {0.0, kInf, kNaN}) {
    const OutputCheck check = CheckOutput(FolderOperator(), wg, std::vector<double>{device, -kInf},
                                          DType::kBFloat16, {tol.ulp, tol.c});
    EXPECT_TRUE(check.passed()) << device;
    EXPECT_EQ(check.rules.at("nsa.fp32_overflow").held, 2) << device;
  }
  // Beyond the bound (c * 2^-24 * mag is about 2^134 here) it still fails.
  const OutputCheck far = CheckOutput(FolderOperator(), wg, std::vector<double>{-0x1p140, -kInf},
                                      DType::kBFloat16, {tol.ulp, tol.c});
  EXPECT_EQ(far.rules.at("nsa.fp32_overflow").held, 1);
}

TEST(NsaCompressGradReference, CallRules) {
  Problem null_ends = RandomProblem(std::nullopt, 64, 1, 16, 32, 16, 1);
  EXPECT_EQ(CallRuleIds(RunReference(null_ends)),
            (std::vector<std::string>{"nsa.null_act_seq_len"}));
  Problem plain = RandomProblem(std::vector<int64_t>{128, 272}, 272, 1, 16, 32, 16, 1);
  EXPECT_TRUE(CallRuleIds(RunReference(plain)).empty());
  Problem leading = RandomProblem(std::vector<int64_t>{0, 128, 272}, 272, 1, 16, 32, 16, 1);
  EXPECT_EQ(CallRuleIds(RunReference(leading)), (std::vector<std::string>{"nsa.leading_zero"}));
  Problem short_middle = RandomProblem(std::vector<int64_t>{64, 80, 160}, 160, 1, 16, 32, 16, 1);
  EXPECT_EQ(CallRuleIds(RunReference(short_middle)),
            (std::vector<std::string>{"nsa.short_sequence"}));
  Problem short_first = RandomProblem(std::vector<int64_t>{20, 100}, 100, 1, 16, 32, 16, 1);
  EXPECT_EQ(CallRuleIds(RunReference(short_first)),
            (std::vector<std::string>{"nsa.short_sequence"}));
  Problem empty_middle = RandomProblem(std::vector<int64_t>{0, 64, 64, 96}, 96, 1, 16, 32, 16, 1);
  EXPECT_EQ(CallRuleIds(RunReference(empty_middle)),
            (std::vector<std::string>{"nsa.leading_zero", "nsa.short_sequence"}));
}

TEST(NsaCompressGradReference, MagnitudeIsTheSumOfTheTermsMagnitudes) {
  // Terms cancel: the value is 0 but mag keeps the scale of the rounding error.
  Problem p{std::vector<int64_t>{3}, 3, 1, 1, 2, 1, {3, -3}, {2, 5, 2}, {1, 1}};
  const ReferenceResult result = RunReference(p);
  EXPECT_EQ(result.outputs[kInputGrad].value, (std::vector<double>{3, 0, -3}));
  EXPECT_EQ(result.outputs[kInputGrad].mag, (std::vector<double>{3, 6, 3}));
  EXPECT_EQ(result.outputs[kWeightGrad].value, (std::vector<double>{-9, 9}));  // 3*2-3*5, 3*5-3*2
  EXPECT_EQ(result.outputs[kWeightGrad].mag, (std::vector<double>{21, 21}));
}

TEST(NsaCompressGradReference, EveryLayoutGivesTheContiguousResult) {
  const Problem p = RandomProblem(std::vector<int64_t>{0, 50, 96}, 96, 3, 16, 32, 16, 21);
  for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
    const ReferenceResult expected = RunReference(p, dtype);
    for (const char* text : {"offset:3", "strided:2", "transposed"}) {
      const ReferenceResult result = RunReference(p, dtype, *Layout::Parse(text));
      for (size_t slot : {kInputGrad, kWeightGrad}) {
        EXPECT_EQ(result.outputs[slot].value, expected.outputs[slot].value) << text;
        EXPECT_EQ(result.outputs[slot].mag, expected.outputs[slot].mag) << text;
        EXPECT_EQ(result.outputs[slot].rule, expected.outputs[slot].rule) << text;
      }
    }
  }
}

TEST(NsaCompressGradReference, ComputesBothOutputsAndNoInput) {
  const ReferenceResult result = RunReference(RandomProblem(std::nullopt, 48, 1, 16, 32, 16, 2));
  ASSERT_EQ(result.outputs.size(), 5u);
  EXPECT_FALSE(result.outputs[kOutputGrad].computed);
  EXPECT_FALSE(result.outputs[kInput].computed);
  EXPECT_FALSE(result.outputs[kWeight].computed);
  EXPECT_TRUE(result.outputs[kInputGrad].computed);
  EXPECT_TRUE(result.outputs[kWeightGrad].computed);
}

}  // namespace
}  // namespace aclnn_check::nsa_compress_grad
