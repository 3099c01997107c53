// `aclnn-check bench compare BASE.json NEW.json`: per benchmark and figure (device time, host
// GetWorkspaceSize, host launch), the change of the median between two Google Benchmark outputs,
// a Mann-Whitney U test over the repetitions, and a verdict: a regression names its figure.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bench/mann_whitney.h"

namespace aclnn_check {

struct CompareOptions {
  double threshold = 0.05;  // a relative change of the median time smaller than this is noise
  double alpha = 0.05;      // significance level of the U test
  // Fewer repetitions than this in either file: the U test is not applied, only the threshold.
  // With 5 and 5 values the smallest two-sided p-value is 2/252 ~ 0.008, so the test can reject
  // at the usual levels; with 3 and 3 it cannot go below 0.1.
  size_t min_repetitions = 5;
};

// What bench times per point (docs/contract/benchmarks.md), judged apart.
enum class Figure { kDevice, kHostGetWorkspace, kHostLaunch };
inline constexpr Figure kFigures[] = {Figure::kDevice, Figure::kHostGetWorkspace,
                                      Figure::kHostLaunch};
// "device", "host GetWorkspaceSize", "host launch".
std::string_view FigureName(Figure figure);
// The JSON key of a figure: the Google Benchmark counter of a host figure, "real_time" for the
// device time.
std::string_view FigureKey(Figure figure);

// A benchmark's name without the "/manual_time" Google Benchmark appends to manually timed ones,
// so that the point's id names it whichever way it was timed.
std::string PointBenchmarkName(std::string run_name);

// The timings of one benchmark in one file.
struct BenchmarkSamples {
  std::string name;
  std::vector<double> seconds;  // real_time (device time) per iteration of each repetition
  // Only aggregates were written (--benchmark_report_aggregates_only): the median stands in.
  bool from_aggregate = false;
  std::optional<std::string> error;  // the benchmark reported an error
  // The host counters per repetition (empty when the file has none: older outputs, other tools).
  std::vector<double> host_get_workspace_seconds{};
  std::vector<double> host_launch_seconds{};

  const std::vector<double>& Of(Figure figure) const;
  std::vector<double>& Of(Figure figure);
};

// The benchmarks of a Google Benchmark JSON output, in file order. Throws InputError (naming
// `file` and the JSON pointer of the field) when it is not one.
std::vector<BenchmarkSamples> ReadBenchmarkSamples(const nlohmann::json& output,
                                                   const std::string& file);

enum class ChangeVerdict { kRegression, kImprovement, kNoChange, kFailed, kOnlyInBase, kOnlyInNew };
std::string_view ChangeVerdictName(ChangeVerdict verdict);

struct BenchmarkChange {
  std::string name;
  Figure figure = Figure::kDevice;
  double base_seconds = 0;                  // median
  double new_seconds = 0;                   // median
  double relative_change = 0;               // new / base - 1: positive is slower
  std::optional<MannWhitneyResult> u_test;  // applied when both have min_repetitions samples
  ChangeVerdict verdict = ChangeVerdict::kNoChange;
  std::string note;
};

struct Comparison {
  std::vector<BenchmarkChange> changes;
  std::vector<std::string> notes;  // said once, below the table
  size_t common = 0;               // benchmarks in both files
  // A significant regression, or a benchmark that failed in NEW.
  bool regressed() const;
};

// One change per benchmark and figure present in both (the device time always; a host figure
// where both files have its counter). Regression: slower by more than the threshold and, where
// the U test applies, p < alpha. Improvement: the same, faster. A benchmark that failed in NEW
// counts as a regression.
Comparison CompareBenchmarkOutputs(const std::vector<BenchmarkSamples>& base,
                                   const std::vector<BenchmarkSamples>& candidate,
                                   const CompareOptions& options);

// A table, one line per benchmark, and the notes.
std::string FormatComparison(const Comparison& comparison, const CompareOptions& options);

}  // namespace aclnn_check
