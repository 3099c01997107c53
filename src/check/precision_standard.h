// CANN's published precision standards for floating-point operators (docs/contract/numerics.md;
// hicann/cannbot-skills
// ops/ops-precision-standard/reference/golden/COMMERCIAL_OPS_PRECISION_DOCS.md sections 4.5 and
// 5.3, OPS_PRECISION_STANDARDS.md): the metrics of an implementation against a float64 golden, the
// single benchmark (thresholds on MERE/MARE) and the double benchmark (ratios device/benchmark of
// MARE, MERE, RMSE, the small-value ErrorCount, and the inf/NaN classes), and the bootstrap of the
// re-check. Everything works on plain spans of decoded values in logical order; golden is never
// rounded here (callers that judge against a golden stored in the output dtype round it first).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/block_values.h"
#include "core/dtype.h"

namespace aclnn_check {

// The standard's per-dtype constants; 0 for dtypes it does not cover.
double SingleBenchmarkThreshold(DType dtype);  // T: fp16 2^-10, bf16 2^-7, fp32 2^-13
double SmallValueThreshold(DType dtype);       // fp16 2^-11, bf16 2^-8, fp32 2^-14
double SmallValueError(DType dtype);           // fp16/bf16 2^-16, fp32 2^-30

// |actual - golden| / (|golden| + 1e-7), the standard's relative error.
double RelativeError(double actual, double golden);

// Single benchmark over every element whose golden is finite (small values included, as the ATK
// lists judge): MERE = mean RE, MARE = max RE; a non-finite actual there counts as RE = inf. A
// non-finite golden must be matched (NaN by NaN, inf by the same inf).
struct SingleBenchmark {
  int64_t elements = 0;
  int64_t special_mismatches = 0;
  double mere = 0;
  double mare = 0;
  double threshold = 0;
  bool passed = true;
};
SingleBenchmark JudgeSingleBenchmark(std::span<const double> actual, std::span<const double> golden, DType out);
// The same with the device's values read a block at a time (a downloaded output decoded on
// demand); so for CompareDoubleBenchmark and MeasureAgainstGolden below.
// With kToOutputDType, each golden value is first rounded to the output dtype (CANN's golden
// files hold that dtype: its ATK lists' single_bm is judged so), a block at a time.
enum class GoldenRounding { kAsGiven, kToOutputDType };
SingleBenchmark JudgeSingleBenchmark(const BlockValues& actual, std::span<const double> golden,
                                     DType out, GoldenRounding rounding = GoldenRounding::kAsGiven);

// One implementation against golden, as the double benchmark measures it: MARE, MERE and RMSE over
// the normal range (|golden| >= the small-value threshold, every compared value finite), ErrorCount
// over the small range.
struct ErrorMetrics {
  int64_t normal_elements = 0;
  int64_t small_elements = 0;
  double mare = 0;
  double mere = 0;
  double rmse = 0;
  int64_t error_count = 0;
};

// The inf/NaN classes (section 5.3.3) over elements where golden, device or benchmark is not finite:
// correct when the device matches the benchmark or golden, wrong when golden and benchmark agree and
// the device does not, inspect otherwise (all three differ). "Agree" compares classes: finite, +inf,
// -inf, NaN. Without a benchmark the device must match golden (wrong otherwise). The standard
// judges these elements "combined with the formula": where a documented rule accepts the device's
// value (kernels/<op>/README.md's element rules, such as either sign of infinity at x = -0, and
// docs/contract/numerics.md's overflow that the bound leaves undecided), the element is correct
// whatever the others hold (by_rule).
struct SpecialValueClasses {
  int64_t correct = 0;  // by_rule included
  int64_t by_rule = 0;
  int64_t wrong = 0;
  int64_t inspect = 0;
  int64_t first_wrong = -1;  // element index
};

enum class DoubleBenchmarkLevel { kL0, kL1, kL2 };
std::string_view LevelName(DoubleBenchmarkLevel level);  // "L0", "L1", "L2"
std::optional<DoubleBenchmarkLevel> ParseLevel(std::string_view text);

struct RatioLimits {
  double mare = 0, mere = 0, rmse = 0;
};
RatioLimits LimitsOf(DoubleBenchmarkLevel level);  // L0 10/2/2, L1 5/1.5/1.5, L2 2/1.2/1.2
constexpr double kErrorCountRatioLimit = 2;

// The ratios the double benchmark judges, in this order.
enum class RatioKind { kMare, kMere, kRmse, kErrorCount };
constexpr std::array<RatioKind, 4> kRatioKinds = {RatioKind::kMare, RatioKind::kMere, RatioKind::kRmse,
                                                  RatioKind::kErrorCount};
std::string_view RatioName(RatioKind kind);  // "mare", "mere", "rmse", "error_count"

// device metric / benchmark metric; 0/0 is 1 (both exact), x/0 is inf. ErrorCount divides by
// max(benchmark, 1) as the standard writes it.
double MetricRatio(double device, double benchmark);

struct DoubleBenchmarkComparison {
  ErrorMetrics device;
  ErrorMetrics benchmark;
  SpecialValueClasses specials;
  std::array<double, 4> ratios{};  // by RatioKind
};

// Whether a documented rule accepts the device's value at an element (asked only of elements the
// inf/NaN classes judge); empty: no rule is known, classes alone decide.
using DocumentedValue = std::function<bool(size_t index)>;

// Measures device and benchmark against golden over the same elements.
DoubleBenchmarkComparison CompareDoubleBenchmark(std::span<const double> device, std::span<const double> benchmark,
                                                 std::span<const double> golden, DType out,
                                                 const DocumentedValue& documented = {});
DoubleBenchmarkComparison CompareDoubleBenchmark(const BlockValues& device,
                                                 std::span<const double> benchmark,
                                                 std::span<const double> golden, DType out,
                                                 const DocumentedValue& documented = {});

// Device metrics alone (no benchmark): what report.json shows when none was given.
ErrorMetrics MeasureAgainstGolden(std::span<const double> actual, std::span<const double> golden, DType out,
                                  SpecialValueClasses* specials = nullptr, const DocumentedValue& documented = {});
ErrorMetrics MeasureAgainstGolden(const BlockValues& actual, std::span<const double> golden,
                                  DType out, SpecialValueClasses* specials = nullptr,
                                  const DocumentedValue& documented = {});

// The ratios over their limits at a level, as "mare 3.1 > 2" phrases; empty: passed. Wrong special
// values fail too; elements flagged for inspection do not (they are reported).
std::vector<std::string> DoubleBenchmarkFailures(const DoubleBenchmarkComparison& comparison,
                                                 DoubleBenchmarkLevel level);
bool RatioWithinLimit(RatioKind kind, double ratio, DoubleBenchmarkLevel level);

// The re-check (section 4.5.2): the median of `samples` and its bootstrap 95 % interval
// (`resamples` resamples with replacement, percentiles 2.5 and 97.5 interpolated linearly as
// numpy's percentile does), drawn with a counter-based generator keyed by `seed`: the same
// samples and seed give the same interval on every machine.
struct BootstrapInterval {
  double median = 0;
  double lower = 0;
  double upper = 0;
};
BootstrapInterval BootstrapMedianInterval(std::span<const double> samples, uint64_t seed, int resamples = 2000);

// The standard's smallest number of fresh-seed runs for a re-check verdict.
constexpr int kMinimumRecheckRuns = 200;
constexpr int kBootstrapResamples = 2000;

}  // namespace aclnn_check

namespace aclnn_check {

// Everything the standards measured on one output, for the reports: the single benchmark, the
// device against golden, and, when a benchmark implementation's output was there, the comparison
// (otherwise `benchmark_missing` says why not: no benchmark given, or the one given lacks the point).
struct OutputPrecision {
  SingleBenchmark single;
  ErrorMetrics device;
  SpecialValueClasses specials;  // against golden alone, or three-way when `comparison` is set
  std::optional<DoubleBenchmarkComparison> comparison;
  std::string benchmark_missing;
};

}  // namespace aclnn_check
