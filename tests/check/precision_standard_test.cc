// CANN's precision standards (docs/contract/numerics.md) on hand-made data: every expected number
// below is worked out by hand from the standard's formulas (COMMERCIAL_OPS_PRECISION_DOCS.md 4.1,
// 4.5, 5.3.3, 5.3.4).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>
#include <vector>

#include "check/precision_standard.h"
#include "check/verdict_selection.h"
#include "core/parallel_blocks.h"

namespace aclnn_check {
namespace {

TEST(PrecisionStandard, TheStandardsConstantsPerDtype) {
  EXPECT_EQ(SmallValueThreshold(DType::kFloat16), 1.0 / 2048);
  EXPECT_EQ(SmallValueThreshold(DType::kBFloat16), 1.0 / 256);
  EXPECT_EQ(SmallValueThreshold(DType::kFloat32), 1.0 / 16384);
  EXPECT_EQ(SmallValueError(DType::kFloat16), 1.0 / 65536);
  EXPECT_EQ(SmallValueError(DType::kBFloat16), 1.0 / 65536);
  EXPECT_EQ(SmallValueError(DType::kFloat32), std::ldexp(1.0, -30));
  EXPECT_EQ(SingleBenchmarkThreshold(DType::kFloat16), 1.0 / 1024);
  EXPECT_EQ(LimitsOf(DoubleBenchmarkLevel::kL0).mare, 10);
  EXPECT_EQ(LimitsOf(DoubleBenchmarkLevel::kL1).mere, 1.5);
  EXPECT_EQ(LimitsOf(DoubleBenchmarkLevel::kL2).rmse, 1.2);
}

TEST(PrecisionStandard, MetricsSplitNormalAndSmallValues) {
  // float32: small-value threshold 2^-14 ~ 6.1e-5; the last element is small.
  const std::vector<double> golden = {1, 2, -4, 1e-6};
  const std::vector<double> device = {1.5, 2, -3, 1e-6 + 1e-8};  // errors 0.5, 0, 1 and 1e-8 > 2^-30
  const ErrorMetrics m = MeasureAgainstGolden(device, golden, DType::kFloat32);
  EXPECT_EQ(m.normal_elements, 3);
  EXPECT_EQ(m.small_elements, 1);
  EXPECT_EQ(m.error_count, 1);
  // RE: 0.5 / (1 + 1e-7), 0, 1 / (4 + 1e-7)
  const double re0 = 0.5 / (1 + 1e-7), re2 = 1 / (4 + 1e-7);
  EXPECT_DOUBLE_EQ(m.mare, re0);
  EXPECT_DOUBLE_EQ(m.mere, (re0 + re2) / 3);
  EXPECT_DOUBLE_EQ(m.rmse, std::sqrt((0.25 + 1) / 3));
}

TEST(PrecisionStandard, DoubleBenchmarkRatiosAndLevels) {
  const std::vector<double> golden = {1, 2, 4, 8};
  const std::vector<double> benchmark = {1.01, 2, 4, 8};  // RE 0.01 at [0]
  const std::vector<double> device = {1.03, 2, 4, 8};     // RE 0.03 at [0]
  const DoubleBenchmarkComparison c = CompareDoubleBenchmark(device, benchmark, golden, DType::kFloat32);
  EXPECT_NEAR(c.ratios[0], 3, 1e-9);  // MARE
  EXPECT_NEAR(c.ratios[1], 3, 1e-9);  // MERE
  EXPECT_NEAR(c.ratios[2], 3, 1e-9);  // RMSE
  EXPECT_EQ(c.ratios[3], 0);          // no small values: 0 / max(0, 1)
  EXPECT_TRUE(DoubleBenchmarkFailures(c, DoubleBenchmarkLevel::kL0).size() == 2);  // MERE, RMSE > 2
  const std::vector<std::string> l2 = DoubleBenchmarkFailures(c, DoubleBenchmarkLevel::kL2);
  ASSERT_EQ(l2.size(), 3u);
  EXPECT_EQ(l2[0], "mare ratio 3 > 2");
  // A device as good as the benchmark passes every level; an exact benchmark and device give 1.
  EXPECT_TRUE(DoubleBenchmarkFailures(CompareDoubleBenchmark(benchmark, benchmark, golden, DType::kFloat32),
                                      DoubleBenchmarkLevel::kL2).empty());
  EXPECT_EQ(CompareDoubleBenchmark(golden, golden, golden, DType::kFloat32).ratios[0], 1);
  EXPECT_TRUE(std::isinf(CompareDoubleBenchmark(device, golden, golden, DType::kFloat32).ratios[0]));
}

TEST(PrecisionStandard, SmallValueErrorCountRatio) {
  // bfloat16: threshold 2^-8, error 2^-16. Three small elements; the device misses three, the
  // benchmark one: ratio 3 / max(1, 1) = 3 > 2.
  const double e = std::ldexp(1.0, -15);
  const std::vector<double> golden = {0.001, 0.002, 0.003, 1};
  const std::vector<double> benchmark = {0.001 + e, 0.002, 0.003, 1};
  const std::vector<double> device = {0.001 + e, 0.002 + e, 0.003 + e, 1};
  const DoubleBenchmarkComparison c = CompareDoubleBenchmark(device, benchmark, golden, DType::kBFloat16);
  EXPECT_EQ(c.device.error_count, 3);
  EXPECT_EQ(c.benchmark.error_count, 1);
  EXPECT_EQ(c.ratios[3], 3);
  EXPECT_FALSE(RatioWithinLimit(RatioKind::kErrorCount, c.ratios[3], DoubleBenchmarkLevel::kL0));
}

TEST(PrecisionStandard, InfNanClasses) {
  const double inf = INFINITY, nan = NAN;
  // golden, benchmark, device:
  //  NaN  NaN  0    -> wrong (golden and benchmark agree, device differs)
  //  inf  0    0    -> correct (device equals the benchmark)
  //  inf  NaN  0    -> inspect (all three differ)
  //  1    1    inf  -> wrong (golden and benchmark finite, device not)
  //  -inf 2    -inf -> correct (device equals golden)
  const std::vector<double> golden = {nan, inf, inf, 1, -inf};
  const std::vector<double> benchmark = {nan, 0, nan, 1, 2};
  const std::vector<double> device = {0, 0, 0, inf, -inf};
  const DoubleBenchmarkComparison c = CompareDoubleBenchmark(device, benchmark, golden, DType::kFloat32);
  EXPECT_EQ(c.specials.correct, 2);
  EXPECT_EQ(c.specials.wrong, 2);
  EXPECT_EQ(c.specials.inspect, 1);
  EXPECT_EQ(c.specials.first_wrong, 0);
  EXPECT_EQ(c.device.normal_elements, 0);  // none of them enters the ratios
  EXPECT_FALSE(DoubleBenchmarkFailures(c, DoubleBenchmarkLevel::kL0).empty());
}

// Neumaier's compensated sum: within a few units in the last place of the exact sum.
double CompensatedSum(const std::vector<double>& terms) {
  double sum = 0, compensation = 0;
  for (double term : terms) {
    const double next = sum + term;
    compensation += std::fabs(sum) >= std::fabs(term) ? (sum - next) + term : (term - next) + sum;
    sum = next;
  }
  return sum + compensation;
}

// A point of many blocks sums its errors per harness block and merges the blocks in order: the
// metrics then differ from a serial sum in the last bits only. Summing b terms and then B block
// sums, all positive, errs by at most (b + B) units of 2^-53 relative.
TEST(PrecisionStandard, BlockwiseSumsStayWithinTheirBoundAndIgnoreTheThreadCount) {
  const size_t n = 5 * static_cast<size_t>(kHarnessBlock) + 777;
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> magnitude(0.5, 2), error(-1e-3, 1e-3);
  std::vector<double> golden(n), device(n), benchmark(n);
  for (size_t i = 0; i < n; ++i) {
    golden[i] = (i % 3 ? 1 : -1) * magnitude(random);
    device[i] = golden[i] * (1 + error(random));
    benchmark[i] = golden[i] * (1 + error(random) / 2);
  }
  // Two wrong specials, in the third and fifth blocks: the first one must be reported.
  const size_t first_wrong = 2 * static_cast<size_t>(kHarnessBlock) + 5;
  const size_t second_wrong = 4 * static_cast<size_t>(kHarnessBlock) + 9;
  device[first_wrong] = device[second_wrong] = INFINITY;
  std::vector<double> relative, squared, single;
  for (size_t i = 0; i < n; ++i) {
    const double re = RelativeError(device[i], golden[i]);
    single.push_back(std::isinf(re) ? 0 : re);
    if (i == first_wrong || i == second_wrong) continue;
    relative.push_back(re);
    squared.push_back((device[i] - golden[i]) * (device[i] - golden[i]));
  }
  const double count = static_cast<double>(relative.size());
  const double bound =
      static_cast<double>(kHarnessBlock + BlockCount(static_cast<int64_t>(n)) + 4) * 0x1p-53;

  std::vector<DoubleBenchmarkComparison> runs;
  std::vector<SingleBenchmark> singles;
  for (size_t threads : {size_t{1}, size_t{3}}) {
    SetHarnessThreadCount(threads);
    runs.push_back(CompareDoubleBenchmark(device, benchmark, golden, DType::kFloat32));
    singles.push_back(JudgeSingleBenchmark(device, golden, DType::kFloat32));
  }
  SetHarnessThreadCount(HarnessThreadCountFromEnvironment());
  const ErrorMetrics& m = runs[0].device;
  EXPECT_EQ(m.normal_elements, static_cast<int64_t>(n) - 2);
  EXPECT_NEAR(m.mere, CompensatedSum(relative) / count, bound * m.mere);
  EXPECT_NEAR(m.rmse * m.rmse, CompensatedSum(squared) / count, 3 * bound * m.rmse * m.rmse);
  EXPECT_EQ(runs[0].specials.wrong, 2);
  EXPECT_EQ(runs[0].specials.first_wrong, static_cast<int64_t>(first_wrong));
  // The single benchmark counts a non-finite actual as RE = inf: its MERE is inf here, and its
  // finite part is checked through a copy without the two.
  EXPECT_TRUE(std::isinf(singles[0].mere));
  std::vector<double> finite_device = device;
  finite_device[first_wrong] = golden[first_wrong];
  finite_device[second_wrong] = golden[second_wrong];
  const SingleBenchmark finite_single =
      JudgeSingleBenchmark(finite_device, golden, DType::kFloat32);
  EXPECT_NEAR(finite_single.mere, CompensatedSum(single) / static_cast<double>(n),
              bound * finite_single.mere);
  // One thread and three give the same bits.
  EXPECT_EQ(std::bit_cast<uint64_t>(runs[0].device.mere),
            std::bit_cast<uint64_t>(runs[1].device.mere));
  EXPECT_EQ(std::bit_cast<uint64_t>(runs[0].device.rmse),
            std::bit_cast<uint64_t>(runs[1].device.rmse));
  EXPECT_EQ(std::bit_cast<uint64_t>(runs[0].benchmark.mere),
            std::bit_cast<uint64_t>(runs[1].benchmark.mere));
  EXPECT_EQ(runs[0].specials.first_wrong, runs[1].specials.first_wrong);
  EXPECT_EQ(std::bit_cast<uint64_t>(singles[0].mare), std::bit_cast<uint64_t>(singles[1].mare));
}

// Section 5.3.3 judges inf/NaN "combined with the formula": an element whose value a documented
// rule accepts (here elements 0 and 3, as -inf for +inf at logit's x = -0) is correct by rule, the
// others keep their classes, and the rule is asked only about elements the classes do not settle.
TEST(PrecisionStandard, ADocumentedRuleDecidesTheInfNanClassOfItsElements) {
  const double inf = INFINITY, nan = NAN;
  const std::vector<double> golden = {inf, inf, nan, 1, 5};
  const std::vector<double> benchmark = {inf, inf, nan, 1, 5};
  const std::vector<double> device = {-inf, -inf, 0, inf, 5};
  std::vector<size_t> asked;
  const DocumentedValue documented = [&](size_t i) {
    asked.push_back(i);
    return i == 0 || i == 3;
  };
  const DoubleBenchmarkComparison c =
      CompareDoubleBenchmark(device, benchmark, golden, DType::kFloat32, documented);
  EXPECT_EQ(c.specials.correct, 2);
  EXPECT_EQ(c.specials.by_rule, 2);
  EXPECT_EQ(c.specials.wrong, 2);
  EXPECT_EQ(c.specials.first_wrong, 1);
  EXPECT_EQ(asked, (std::vector<size_t>{0, 1, 2, 3}));
  SpecialValueClasses alone;
  MeasureAgainstGolden(device, golden, DType::kFloat32, &alone, documented);
  EXPECT_EQ(alone.by_rule, 2);
  EXPECT_EQ(alone.wrong, 2);
}

TEST(PrecisionStandard, AGoldenBeyondTheDtypesRangeIsItsInfinity) {
  // bfloat16: 1.5 * the largest finite value rounds to inf; a device that overflows is right there,
  // whatever a benchmark that computed a smaller finite value says.
  const double max_bf16 = 3.3895313892515355e38;
  const std::vector<double> golden = {1.5 * max_bf16};
  const DoubleBenchmarkComparison c =
      CompareDoubleBenchmark(std::vector<double>{INFINITY}, std::vector<double>{max_bf16}, golden, DType::kBFloat16);
  EXPECT_EQ(c.specials.correct, 1);
  EXPECT_EQ(c.specials.wrong, 0);
  EXPECT_TRUE(JudgeSingleBenchmark(std::vector<double>{INFINITY}, golden, DType::kBFloat16).passed);
}

TEST(PrecisionStandard, TheRangeEndsExactlyWhereRoundingToTheDtypeOverflows) {
  // Around each dtype's overflow point (its largest value plus half a step, a tie that goes to
  // infinity), a golden counts as infinite exactly when RoundTo makes it one: an infinite device
  // value then matches it in every function of the standard, and a finite one does not.
  for (const DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
    const double largest = NextDown(INFINITY, dtype);
    const double half_step = (largest - NextDown(largest, dtype)) / 2;
    const double tie = largest + half_step;
    for (const double magnitude :
         {largest, std::nextafter(tie, 0.0), tie, std::nextafter(tie, INFINITY), 2 * largest}) {
      for (const double golden : {magnitude, -magnitude}) {
        const bool overflows = std::isinf(RoundTo(golden, dtype));
        const std::vector<double> device = {std::copysign(INFINITY, golden)};
        const std::vector<double> goldens = {golden};
        // Finite, the golden makes the infinite device value's relative error infinite.
        EXPECT_EQ(JudgeSingleBenchmark(device, goldens, dtype).passed, overflows)
            << DTypeName(dtype) << " " << golden;
        SpecialValueClasses classes;
        MeasureAgainstGolden(device, goldens, dtype, &classes, nullptr);
        EXPECT_EQ(classes.correct, overflows ? 1 : 0) << DTypeName(dtype) << " " << golden;
        // A benchmark that stayed finite: the device is right only where the golden overflows.
        const std::vector<double> benchmark = {std::copysign(largest, golden)};
        const DoubleBenchmarkComparison c =
            CompareDoubleBenchmark(device, benchmark, goldens, dtype);
        EXPECT_EQ(c.specials.correct, overflows ? 1 : 0) << DTypeName(dtype) << " " << golden;
      }
    }
  }
}

TEST(PrecisionStandard, SingleBenchmarkUsesUnroundedGoldenAndTenTimesForMare) {
  // fp16: T = 2^-10. MERE just under T but MARE over 10 T fails.
  std::vector<double> golden(100, 1.0), device(100, 1.0);
  device[0] = 1 + 11.0 / 1024;  // RE ~ 0.0107 > 10 T = 0.00977; MERE ~ 1.07e-4 < T
  SingleBenchmark s = JudgeSingleBenchmark(device, golden, DType::kFloat16);
  EXPECT_FALSE(s.passed);
  device[0] = 1 + 9.0 / 1024;
  s = JudgeSingleBenchmark(device, golden, DType::kFloat16);
  EXPECT_TRUE(s.passed);
  golden[1] = NAN;  // a NaN golden must be matched
  EXPECT_FALSE(JudgeSingleBenchmark(device, golden, DType::kFloat16).passed);
}

TEST(PrecisionStandard, BootstrapMedianIntervalIsDeterministicAndCoversTheMedian) {
  std::vector<double> samples;
  for (int i = 0; i < 201; ++i) samples.push_back(1.0 + 0.001 * i);  // median 1.1
  const BootstrapInterval a = BootstrapMedianInterval(samples, 42);
  const BootstrapInterval b = BootstrapMedianInterval(samples, 42);
  EXPECT_EQ(a.lower, b.lower);
  EXPECT_EQ(a.upper, b.upper);
  EXPECT_DOUBLE_EQ(a.median, 1.1);
  EXPECT_LT(a.lower, 1.1);
  EXPECT_GT(a.upper, 1.1);
  EXPECT_GT(a.lower, 1.0);  // every sample above 1: the device is systematically worse
  // Half the samples at 0.9, half at 1.3: the median's interval reaches below 1.
  std::vector<double> mixed;
  for (int i = 0; i < 200; ++i) mixed.push_back(i % 2 ? 1.3 : 0.9);
  EXPECT_LE(BootstrapMedianInterval(mixed, 7).lower, 1.0);
  const std::vector<double> constant(250, 2.0);
  const BootstrapInterval c = BootstrapMedianInterval(constant, 1);
  EXPECT_EQ(c.lower, 2.0);
  EXPECT_EQ(c.upper, 2.0);
}

TEST(VerdictSelection, ParsesListsAndRejectsUnknownWords) {
  const VerdictSelection v = ParseVerdicts({"element,double_bm:L2", "single_bm"});
  EXPECT_TRUE(v.element);
  EXPECT_TRUE(v.single_bm);
  ASSERT_TRUE(v.double_bm);
  EXPECT_EQ(*v.double_bm, DoubleBenchmarkLevel::kL2);
  EXPECT_EQ(v.ToString(), "element,single_bm,double_bm:L2");
  EXPECT_FALSE(ParseVerdicts({"double_bm:L0"}).element);  // instead of the element check
  EXPECT_THROW(ParseVerdicts({"double_bm"}), std::invalid_argument);
  EXPECT_THROW(ParseVerdicts({"double_bm:L3"}), std::invalid_argument);
  EXPECT_THROW(ParseVerdicts({"double_bm:L1,double_bm:L2"}), std::invalid_argument);
  EXPECT_THROW(ParseVerdicts({}), std::invalid_argument);
}

}  // namespace
}  // namespace aclnn_check
