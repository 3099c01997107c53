// `bench compare` verdicts on synthetic Google Benchmark outputs, and bad outputs reported as
// InputError naming the file and the field.
#include "bench/benchmark_comparison.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "json_input/input_error.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

// A Google Benchmark output with one iteration entry per time, as --benchmark_repetitions writes.
json Output(const std::vector<std::pair<std::string, std::vector<double>>>& benchmarks,
            const std::string& unit = "ms") {
  json runs = json::array();
  for (const auto& [name, times] : benchmarks) {
    for (size_t i = 0; i < times.size(); ++i) {
      runs.push_back({{"name", name},
                      {"run_name", name},
                      {"run_type", "iteration"},
                      {"repetitions", times.size()},
                      {"repetition_index", i},
                      {"iterations", 10},
                      {"real_time", times[i]},
                      {"cpu_time", times[i]},
                      {"time_unit", unit}});
    }
  }
  return {{"context", {{"date", "2026-11-23T11:00:00+00:00"}}}, {"benchmarks", runs}};
}

Comparison Compare(const json& base, const json& candidate, CompareOptions options = {}) {
  return CompareBenchmarkOutputs(ReadBenchmarkSamples(base, "base.json"),
                                 ReadBenchmarkSamples(candidate, "new.json"), options);
}

const std::vector<double> kBase = {10.0, 10.1, 10.2, 10.3, 10.4};

TEST(BenchmarkComparison, SeparatedAndSlowerBeyondTheThresholdIsARegression) {
  const Comparison c =
      Compare(Output({{"op", kBase}}), Output({{"op", {12.0, 12.1, 12.2, 12.3, 12.4}}}));
  ASSERT_EQ(c.changes.size(), 1u);
  EXPECT_EQ(c.changes[0].verdict, ChangeVerdict::kRegression);
  EXPECT_NEAR(c.changes[0].relative_change, 12.2 / 10.2 - 1, 1e-12);  // medians
  ASSERT_TRUE(c.changes[0].u_test);
  EXPECT_NEAR(c.changes[0].u_test->p_value, 2.0 / 252, 1e-12);
  EXPECT_TRUE(c.regressed());
}

TEST(BenchmarkComparison, FasterIsAnImprovementAndNotARegression) {
  const Comparison c =
      Compare(Output({{"op", kBase}}), Output({{"op", {8.0, 8.1, 8.2, 8.3, 8.4}}}));
  EXPECT_EQ(c.changes[0].verdict, ChangeVerdict::kImprovement);
  EXPECT_FALSE(c.regressed());
}

TEST(BenchmarkComparison, SignificantButBelowTheThresholdIsNoChange) {
  // 2% slower, every sample above every base sample: p = 2/252, but under the 5% threshold.
  const Comparison c =
      Compare(Output({{"op", kBase}}), Output({{"op", {10.45, 10.5, 10.6, 10.7, 10.8}}}));
  EXPECT_EQ(c.changes[0].verdict, ChangeVerdict::kNoChange);
  EXPECT_FALSE(c.regressed());
}

TEST(BenchmarkComparison, LargeChangeOfTheMedianWithOverlappingSamplesIsNoChange) {
  // Median 14 -> 15 (+7%), but the samples interleave: U = 10 of 25, P(U <= 10) = 87/252.
  const Comparison c =
      Compare(Output({{"op", {10, 12, 14, 16, 18}}}), Output({{"op", {11, 13, 15, 17, 19}}}));
  EXPECT_EQ(c.changes[0].verdict, ChangeVerdict::kNoChange);
  ASSERT_TRUE(c.changes[0].u_test);
  EXPECT_NEAR(c.changes[0].u_test->p_value, 174.0 / 252, 1e-12);
}

TEST(BenchmarkComparison, ThresholdAndAlphaAreOptions) {
  CompareOptions options;
  options.threshold = 0.01;
  const Comparison c =
      Compare(Output({{"op", kBase}}), Output({{"op", {10.45, 10.5, 10.6, 10.7, 10.8}}}), options);
  EXPECT_EQ(c.changes[0].verdict, ChangeVerdict::kRegression);
  options.alpha = 0.005;  // below the smallest p of 5 against 5
  EXPECT_EQ(
      Compare(Output({{"op", kBase}}), Output({{"op", {10.45, 10.5, 10.6, 10.7, 10.8}}}), options)
          .changes[0]
          .verdict,
      ChangeVerdict::kNoChange);
}

TEST(BenchmarkComparison, FewRepetitionsAreJudgedByTheThresholdAlone) {
  const Comparison c = Compare(Output({{"op", {10}}}), Output({{"op", {13}}}));
  EXPECT_EQ(c.changes[0].verdict, ChangeVerdict::kRegression);
  EXPECT_FALSE(c.changes[0].u_test);
  EXPECT_FALSE(c.notes.empty());
}

TEST(BenchmarkComparison, TimeUnitsAreConverted) {
  const Comparison c = Compare(Output({{"op", {1.0, 1.0, 1.0}}}, "ms"),
                               Output({{"op", {1000.0, 1000.0, 1000.0}}}, "us"));
  EXPECT_EQ(c.changes[0].verdict, ChangeVerdict::kNoChange);
  EXPECT_NEAR(c.changes[0].relative_change, 0, 1e-12);
}

TEST(BenchmarkComparison, FailedInNewCountsAsRegressionAndMissingOnesAreListed) {
  json candidate = Output({{"kept", kBase}, {"added", kBase}});
  candidate["benchmarks"].push_back({{"name", "broken"},
                                     {"run_name", "broken"},
                                     {"run_type", "iteration"},
                                     {"error_occurred", true},
                                     {"error_message", "status 161002"}});
  const Comparison c =
      Compare(Output({{"kept", kBase}, {"broken", kBase}, {"dropped", kBase}}), candidate);
  std::map<std::string, ChangeVerdict> verdicts;
  for (const BenchmarkChange& change : c.changes) verdicts[change.name] = change.verdict;
  EXPECT_EQ(verdicts.at("kept"), ChangeVerdict::kNoChange);
  EXPECT_EQ(verdicts.at("added"), ChangeVerdict::kOnlyInNew);
  EXPECT_EQ(verdicts.at("dropped"), ChangeVerdict::kOnlyInBase);
  EXPECT_EQ(verdicts.at("broken"), ChangeVerdict::kFailed);
  EXPECT_TRUE(c.regressed());
  EXPECT_EQ(c.common, 2u);
}

TEST(BenchmarkComparison, AggregatesOnlyFallBackToTheMedian) {
  json output = {{"benchmarks",
                  {{{"name", "op_median"},
                    {"run_name", "op"},
                    {"run_type", "aggregate"},
                    {"aggregate_name", "median"},
                    {"real_time", 5.0},
                    {"time_unit", "ms"}},
                   {{"name", "op_mean"},
                    {"run_name", "op"},
                    {"run_type", "aggregate"},
                    {"aggregate_name", "mean"},
                    {"real_time", 9.0},
                    {"time_unit", "ms"}}}}};
  const std::vector<BenchmarkSamples> samples = ReadBenchmarkSamples(output, "agg.json");
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].seconds, std::vector<double>{5e-3});
  EXPECT_TRUE(samples[0].from_aggregate);
}

// The InputError of a bad output, as "<file>|<pointer>".
std::string ErrorOf(const json& output) {
  try {
    ReadBenchmarkSamples(output, "bad.json");
  } catch (const InputError& error) {
    return error.file() + "|" + error.pointer();
  }
  return "no error";
}

TEST(BenchmarkComparison, BadOutputsNameTheFileAndTheField) {
  EXPECT_EQ(ErrorOf(json::array()), "bad.json|/benchmarks");
  EXPECT_EQ(ErrorOf({{"context", json::object()}}), "bad.json|/benchmarks");
  json output = Output({{"op", {1.0, 2.0}}});
  output["benchmarks"][1].erase("real_time");
  EXPECT_EQ(ErrorOf(output), "bad.json|/benchmarks/1/real_time");
  output = Output({{"op", {1.0}}});
  output["benchmarks"][0]["real_time"] = "fast";
  EXPECT_EQ(ErrorOf(output), "bad.json|/benchmarks/0/real_time");
  output = Output({{"op", {1.0}}}, "minutes");
  EXPECT_EQ(ErrorOf(output), "bad.json|/benchmarks/0/time_unit");
  output = Output({{"op", {1.0}}});
  output["benchmarks"][0].erase("name");
  EXPECT_EQ(ErrorOf(output), "bad.json|/benchmarks/0/name");
  output = Output({{"op", {1.0}}});
  output["benchmarks"][0]["run_name"] = 7;
  EXPECT_EQ(ErrorOf(output), "bad.json|/benchmarks/0/run_name");
}

}  // namespace
}  // namespace aclnn_check
