#include "check/precision_standard.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "check/precision_terms.h"
#include "core/hashing.h"
#include "core/parallel_blocks.h"

namespace aclnn_check {
namespace {

enum class ValueClass { kFinite, kPlusInf, kMinusInf, kNaN };

ValueClass ClassOf(double value) {
  if (std::isnan(value)) return ValueClass::kNaN;
  if (std::isinf(value)) return value > 0 ? ValueClass::kPlusInf : ValueClass::kMinusInf;
  return ValueClass::kFinite;
}

// A finite golden beyond the output dtype's range is +-inf in that dtype
// (docs/contract/numerics.md: special values are classified on the reference rounded to the output
// dtype): a device that overflows there is right. Where the output dtype's range ends: the smallest
// double that rounds to +inf in it (its largest finite value plus half a step; that tie goes to the
// even infinity).
class DtypeRange {
 public:
  explicit DtypeRange(DType out) {
    const bool narrower = IsFloating(out) && out != DType::kFloat64;
    const double largest = narrower ? NextDown(std::numeric_limits<double>::infinity(), out) : 0;
    overflow_ = !narrower || std::isinf(largest)
                    ? std::numeric_limits<double>::infinity()
                    : largest + (largest - NextDown(largest, out)) / 2;
  }
  double operator()(double golden) const {
    return std::fabs(golden) >= overflow_ && std::isfinite(golden)
               ? std::copysign(std::numeric_limits<double>::infinity(), golden)
               : golden;
  }
  double overflow() const { return overflow_; }

 private:
  double overflow_;
};

bool SameSpecial(double actual, double golden) {
  return std::isnan(golden) ? std::isnan(actual) : actual == golden;
}

// Sums of one implementation's errors over the elements both implementations are measured on.
struct ErrorSums {
  double relative = 0;
  double squared = 0;
  ErrorMetrics metrics;
  void AddNormal(double actual, double golden) {
    const double re = RelativeError(actual, golden);
    const double diff = actual - golden;
    relative += re;
    squared += diff * diff;
    metrics.mare = std::max(metrics.mare, re);
    ++metrics.normal_elements;
  }
  void AddSmall(double actual, double golden, double error) {
    ++metrics.small_elements;
    if (std::fabs(actual - golden) > error) ++metrics.error_count;
  }
  // The order-free part of a run of elements measured on the lanes; their sums are added apart.
  void AddCounts(const GoldenTotals& totals) {
    metrics.normal_elements += totals.normal;
    metrics.small_elements += totals.small;
    metrics.error_count += totals.error_count;
    metrics.mare = std::max(metrics.mare, totals.mare);
  }
  void Merge(const ErrorSums& block) {
    relative += block.relative;
    squared += block.squared;
    metrics.mare = std::max(metrics.mare, block.metrics.mare);
    metrics.normal_elements += block.metrics.normal_elements;
    metrics.small_elements += block.metrics.small_elements;
    metrics.error_count += block.metrics.error_count;
  }
  ErrorMetrics Finish() {
    if (metrics.normal_elements > 0) {
      const double n = static_cast<double>(metrics.normal_elements);
      metrics.mere = relative / n;
      metrics.rmse = std::sqrt(squared / n);
    }
    return metrics;
  }
};

void Classify(ValueClass device, ValueClass benchmark, ValueClass golden, bool have_benchmark, int64_t index,
              const DocumentedValue& documented, SpecialValueClasses* classes) {
  bool correct = device == golden;
  bool wrong = false;
  if (have_benchmark) {
    correct = correct || device == benchmark;
    wrong = !correct && golden == benchmark;
  } else {
    wrong = !correct;
  }
  if (!correct && documented && documented(static_cast<size_t>(index))) {
    correct = true;
    ++classes->by_rule;
  }
  if (correct) {
    ++classes->correct;
  } else if (wrong) {
    if (classes->wrong++ == 0) classes->first_wrong = index;
  } else {
    ++classes->inspect;
  }
}

void MergeClasses(const SpecialValueClasses& block, SpecialValueClasses* classes) {
  if (classes->wrong == 0 && block.wrong > 0) classes->first_wrong = block.first_wrong;
  classes->correct += block.correct;
  classes->by_rule += block.by_rule;
  classes->wrong += block.wrong;
  classes->inspect += block.inspect;
}

// Runs measure(begin, end, partial) on each harness block of [0, n) in parallel, then
// merge(partial) in block order: sums depend on the block size alone, never on the thread count.
// A point of one block keeps the plain serial order.
template <typename Partial, typename Measure, typename Merge>
void OverBlocks(size_t n, const Measure& measure, const Merge& merge) {
  std::vector<Partial> partials(static_cast<size_t>(BlockCount(static_cast<int64_t>(n))));
  ForEachBlock(static_cast<int64_t>(n), [&](int64_t block, int64_t begin, int64_t end) {
    // A local partial: the compiler keeps its sums in registers, which it cannot do for one in
    // `partials` (a double there might alias the spans being read).
    Partial partial;
    measure(static_cast<size_t>(begin), static_cast<size_t>(end), partial);
    partials[static_cast<size_t>(block)] = partial;
  });
  for (const Partial& partial : partials) merge(partial);
}

// The device's values of elements [begin, end) of a block: a span of decoded values, or a
// downloaded output decoded into the thread's scratch.
std::span<const double> ActualBlock(const BlockValues& values, size_t begin, size_t end,
                                    std::vector<double>& scratch) {
  return values.Block(static_cast<int64_t>(begin), static_cast<int64_t>(end), scratch);
}

double MedianOfSorted(const std::vector<double>& sorted) {
  const size_t n = sorted.size();
  if (n == 0) return 0;
  return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

// numpy.percentile's default (linear) on sorted values.
double Percentile(const std::vector<double>& sorted, double p) {
  const double position = p / 100 * static_cast<double>(sorted.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + (sorted[above] - sorted[below]) * fraction;
}

// values rounded to dtype, into scratch.
std::span<const double> RoundedBlock(std::span<const double> values, DType dtype,
                                     std::vector<double>& scratch) {
  if (scratch.size() < values.size()) scratch.resize(values.size());
  const std::span<double> into(scratch.data(), values.size());
  RoundTo(values, dtype, into);
  return into;
}

}  // namespace

double SingleBenchmarkThreshold(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return 0x1p-13;
    case DType::kFloat16: return 0x1p-10;
    case DType::kBFloat16: return 0x1p-7;
    default: return 0;
  }
}

double SmallValueThreshold(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return 0x1p-14;
    case DType::kFloat16: return 0x1p-11;
    case DType::kBFloat16: return 0x1p-8;
    default: return 0;
  }
}

double SmallValueError(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return 0x1p-30;
    case DType::kFloat16:
    case DType::kBFloat16: return 0x1p-16;
    default: return 0;
  }
}

double RelativeError(double actual, double golden) {
  return std::fabs(actual - golden) / (std::fabs(golden) + 1e-7);
}

SingleBenchmark JudgeSingleBenchmark(std::span<const double> actual, std::span<const double> golden, DType out) {
  return JudgeSingleBenchmark(BlockValues(actual), golden, out);
}

SingleBenchmark JudgeSingleBenchmark(const BlockValues& actual, std::span<const double> golden,
                                     DType out, GoldenRounding rounding) {
  const DtypeRange in_dtype_range(out);
  SingleBenchmark v;
  v.threshold = SingleBenchmarkThreshold(out);
  const size_t n = std::min(static_cast<size_t>(actual.size()), golden.size());
  v.elements = static_cast<int64_t>(n);
  struct Sums {
    double sum = 0;
    double mare = 0;
    int64_t finite = 0;
    int64_t special_mismatches = 0;
  };
  double sum = 0;
  int64_t finite = 0;
  const auto measure = [&](size_t begin, size_t end, Sums& block) {
    thread_local std::vector<double> scratch;
    const std::span<const double> values = ActualBlock(actual, begin, end, scratch);
    thread_local std::vector<double> rounded;
    const std::span<const double> goldens =
        rounding == GoldenRounding::kAsGiven
            ? golden.subspan(begin, end - begin)
            : RoundedBlock(golden.subspan(begin, end - begin), out, rounded);
    Sums sums;  // in registers, apart from block
    const auto special = [&](size_t k) {
      if (!SameSpecial(values[k], in_dtype_range(goldens[k]))) ++sums.special_mismatches;
    };
    const auto one = [&](size_t k) {
      const double value = values[k];
      const double gold = goldens[k];
      const double in_range = in_dtype_range(gold);
      if (!std::isfinite(in_range)) {
        special(k);
        return;
      }
      const double re = RelativeError(value, gold);
      const double counted = std::isnan(re) ? INFINITY : re;
      sums.sum += counted;
      sums.mare = std::max(sums.mare, counted);
      ++sums.finite;
    };
    // The terms a chunk at a time on the lanes, added here in element order.
    constexpr size_t kChunk = 256;
    double counted[kChunk], specials[kChunk];
    const SingleTerms terms{counted, specials};
    for (size_t chunk = 0; chunk < end - begin; chunk += kChunk) {
      const size_t count = std::min(kChunk, end - begin - chunk);
      SingleTotals totals;
      const size_t computed = ComputeSingleTerms(values.data() + chunk, goldens.data() + chunk,
                                                 count, in_dtype_range.overflow(), terms, &totals);
      sums.finite += totals.finite;
      sums.mare = std::max(sums.mare, totals.mare);
      for (size_t k = 0; k < computed; ++k) {
        sums.sum += counted[k];
        if (specials[k] != 0) special(chunk + k);
      }
      for (size_t k = computed; k < count; ++k) one(chunk + k);
    }
    block = sums;
  };
  OverBlocks<Sums>(n, measure, [&](const Sums& block) {
    sum += block.sum;
    v.mare = std::max(v.mare, block.mare);
    finite += block.finite;
    v.special_mismatches += block.special_mismatches;
  });
  v.mere = finite ? sum / static_cast<double>(finite) : 0;
  v.passed = v.special_mismatches == 0 && v.threshold > 0 && v.mere < v.threshold && v.mare < 10 * v.threshold;
  return v;
}

std::string_view LevelName(DoubleBenchmarkLevel level) {
  switch (level) {
    case DoubleBenchmarkLevel::kL0: return "L0";
    case DoubleBenchmarkLevel::kL1: return "L1";
    case DoubleBenchmarkLevel::kL2: return "L2";
  }
  return "L0";
}

std::optional<DoubleBenchmarkLevel> ParseLevel(std::string_view text) {
  if (text == "L0") return DoubleBenchmarkLevel::kL0;
  if (text == "L1") return DoubleBenchmarkLevel::kL1;
  if (text == "L2") return DoubleBenchmarkLevel::kL2;
  return std::nullopt;
}

RatioLimits LimitsOf(DoubleBenchmarkLevel level) {
  switch (level) {
    case DoubleBenchmarkLevel::kL0: return {10, 2, 2};
    case DoubleBenchmarkLevel::kL1: return {5, 1.5, 1.5};
    case DoubleBenchmarkLevel::kL2: return {2, 1.2, 1.2};
  }
  return {};
}

std::string_view RatioName(RatioKind kind) {
  switch (kind) {
    case RatioKind::kMare: return "mare";
    case RatioKind::kMere: return "mere";
    case RatioKind::kRmse: return "rmse";
    case RatioKind::kErrorCount: return "error_count";
  }
  return "";
}

double MetricRatio(double device, double benchmark) {
  if (benchmark == 0) return device == 0 ? 1.0 : INFINITY;
  return device / benchmark;
}

ErrorMetrics MeasureAgainstGolden(std::span<const double> actual, std::span<const double> golden, DType out,
                                  SpecialValueClasses* specials, const DocumentedValue& documented) {
  return MeasureAgainstGolden(BlockValues(actual), golden, out, specials, documented);
}

ErrorMetrics MeasureAgainstGolden(const BlockValues& actual, std::span<const double> golden,
                                  DType out, SpecialValueClasses* specials,
                                  const DocumentedValue& documented) {
  const DtypeRange in_dtype_range(out);
  const double small = SmallValueThreshold(out);
  const double error = SmallValueError(out);
  struct Partial {
    ErrorSums sums;
    SpecialValueClasses classes;
  };
  ErrorSums sums;
  SpecialValueClasses classes;
  const size_t n = std::min(static_cast<size_t>(actual.size()), golden.size());
  const auto measure = [&](size_t begin, size_t end, Partial& block) {
    thread_local std::vector<double> scratch;
    const std::span<const double> values = ActualBlock(actual, begin, end, scratch);
    ErrorSums block_sums;  // apart from the classes, whose address Classify takes: in registers
    const auto special = [&](size_t i) {
      Classify(ClassOf(values[i - begin]), ValueClass::kFinite, ClassOf(in_dtype_range(golden[i])),
               false, static_cast<int64_t>(i), documented, &block.classes);
    };
    const auto one = [&](size_t i) {
      const double value = values[i - begin];
      const double in_range = in_dtype_range(golden[i]);
      if (!std::isfinite(value) || !std::isfinite(in_range)) {
        special(i);
      } else if (std::fabs(golden[i]) < small) {
        block_sums.AddSmall(value, golden[i], error);
      } else {
        block_sums.AddNormal(value, golden[i]);
      }
    };
    // The terms a chunk at a time on the lanes, added here in element order.
    constexpr size_t kChunk = 256;
    double relative[kChunk], squared[kChunk], specials[kChunk];
    const GoldenTerms terms{relative, squared, specials};
    for (size_t chunk = begin; chunk < end; chunk += kChunk) {
      const size_t count = std::min(kChunk, end - chunk);
      GoldenTotals totals;
      const size_t computed =
          ComputeGoldenTerms(values.data() + (chunk - begin), golden.data() + chunk, count,
                             in_dtype_range.overflow(), small, error, terms, &totals);
      block_sums.AddCounts(totals);
      for (size_t k = 0; k < computed; ++k) {
        block_sums.relative += relative[k];
        block_sums.squared += squared[k];
        if (specials[k] != 0) special(chunk + k);
      }
      for (size_t k = computed; k < count; ++k) one(chunk + k);
    }
    block.sums = block_sums;
  };
  OverBlocks<Partial>(n, measure, [&](const Partial& block) {
    sums.Merge(block.sums);
    MergeClasses(block.classes, &classes);
  });
  if (specials) *specials = classes;
  return sums.Finish();
}

DoubleBenchmarkComparison CompareDoubleBenchmark(std::span<const double> device, std::span<const double> benchmark,
                                                 std::span<const double> golden, DType out,
                                                 const DocumentedValue& documented) {
  return CompareDoubleBenchmark(BlockValues(device), benchmark, golden, out, documented);
}

DoubleBenchmarkComparison CompareDoubleBenchmark(const BlockValues& device,
                                                 std::span<const double> benchmark,
                                                 std::span<const double> golden, DType out,
                                                 const DocumentedValue& documented) {
  const DtypeRange in_dtype_range(out);
  const double small = SmallValueThreshold(out);
  const double error = SmallValueError(out);
  struct Partial {
    ErrorSums on_device, on_benchmark;
    SpecialValueClasses specials;
  };
  ErrorSums on_device, on_benchmark;
  DoubleBenchmarkComparison c;
  const size_t n = std::min({static_cast<size_t>(device.size()), benchmark.size(), golden.size()});
  const auto measure = [&](size_t begin, size_t end, Partial& block) {
    thread_local std::vector<double> scratch;
    const std::span<const double> values = ActualBlock(device, begin, end, scratch);
    ErrorSums on_device_sums, on_benchmark_sums;  // as in MeasureAgainstGolden: in registers
    for (size_t i = begin; i < end; ++i) {
      const double value = values[i - begin];
      const double in_range = in_dtype_range(golden[i]);
      if (!std::isfinite(value) || !std::isfinite(benchmark[i]) || !std::isfinite(in_range)) {
        Classify(ClassOf(value), ClassOf(benchmark[i]), ClassOf(in_range), true,
                 static_cast<int64_t>(i), documented, &block.specials);
        continue;
      }
      if (std::fabs(golden[i]) < small) {
        on_device_sums.AddSmall(value, golden[i], error);
        on_benchmark_sums.AddSmall(benchmark[i], golden[i], error);
      } else {
        on_device_sums.AddNormal(value, golden[i]);
        on_benchmark_sums.AddNormal(benchmark[i], golden[i]);
      }
    }
    block.on_device = on_device_sums;
    block.on_benchmark = on_benchmark_sums;
  };
  OverBlocks<Partial>(n, measure, [&](const Partial& block) {
    on_device.Merge(block.on_device);
    on_benchmark.Merge(block.on_benchmark);
    MergeClasses(block.specials, &c.specials);
  });
  c.device = on_device.Finish();
  c.benchmark = on_benchmark.Finish();
  c.ratios[0] = MetricRatio(c.device.mare, c.benchmark.mare);
  c.ratios[1] = MetricRatio(c.device.mere, c.benchmark.mere);
  c.ratios[2] = MetricRatio(c.device.rmse, c.benchmark.rmse);
  c.ratios[3] = static_cast<double>(c.device.error_count) /
                static_cast<double>(std::max<int64_t>(c.benchmark.error_count, 1));
  return c;
}

bool RatioWithinLimit(RatioKind kind, double ratio, DoubleBenchmarkLevel level) {
  const RatioLimits limits = LimitsOf(level);
  switch (kind) {
    case RatioKind::kMare: return ratio <= limits.mare;
    case RatioKind::kMere: return ratio <= limits.mere;
    case RatioKind::kRmse: return ratio <= limits.rmse;
    case RatioKind::kErrorCount: return ratio <= kErrorCountRatioLimit;
  }
  return false;
}

std::vector<std::string> DoubleBenchmarkFailures(const DoubleBenchmarkComparison& comparison,
                                                 DoubleBenchmarkLevel level) {
  const RatioLimits limits = LimitsOf(level);
  const std::array<double, 4> limit = {limits.mare, limits.mere, limits.rmse, kErrorCountRatioLimit};
  std::vector<std::string> failures;
  for (size_t k = 0; k < kRatioKinds.size(); ++k) {
    if (RatioWithinLimit(kRatioKinds[k], comparison.ratios[k], level)) continue;
    char text[160];
    std::snprintf(text, sizeof text, "%s ratio %.4g > %g", std::string(RatioName(kRatioKinds[k])).c_str(),
                  comparison.ratios[k], limit[k]);
    failures.push_back(text);
  }
  if (comparison.specials.wrong > 0) {
    failures.push_back(std::to_string(comparison.specials.wrong) +
                       " inf/NaN elements differ where golden and benchmark agree, first at [" +
                       std::to_string(comparison.specials.first_wrong) + "]");
  }
  return failures;
}

BootstrapInterval BootstrapMedianInterval(std::span<const double> samples, uint64_t seed, int resamples) {
  BootstrapInterval interval;
  if (samples.empty() || resamples < 1) return interval;
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  interval.median = MedianOfSorted(sorted);
  const size_t n = samples.size();
  std::vector<double> medians(static_cast<size_t>(resamples));
  std::vector<double> draw(n);
  uint64_t counter = 0;
  for (double& median : medians) {
    for (double& value : draw) {
      // 53 random bits as a fraction of n: exact in double, the same on every IEEE machine.
      const uint64_t bits = SplitMix64(seed ^ SplitMix64(counter++));
      const double unit = static_cast<double>(bits >> 11) * 0x1p-53;
      value = samples[std::min(n - 1, static_cast<size_t>(unit * static_cast<double>(n)))];
    }
    std::sort(draw.begin(), draw.end());
    median = MedianOfSorted(draw);
  }
  std::sort(medians.begin(), medians.end());
  interval.lower = Percentile(medians, 2.5);
  interval.upper = Percentile(medians, 97.5);
  return interval;
}

}  // namespace aclnn_check
