// The three figures of a benchmark kept apart from Google Benchmark's JSON to the trend data:
// `bench compare` judges each with its own U test, the history line records each, and the trend
// data names the figure a run regressed by, so that a host-side regression is named as one.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bench/benchmark_comparison.h"
#include "report/bench_history.h"
#include "report/trend_data.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

// Five repetitions of benchmark "op" as `aclnn-check bench` writes them (manual time, counters).
json Output(double device_ms, double get_workspace_s, double launch_s) {
  json runs = json::array();
  for (int i = 0; i < 5; ++i) {
    const double jitter = 1 + 0.01 * i;
    runs.push_back({{"name", "op/manual_time"},
                    {"run_name", "op/manual_time"},
                    {"run_type", "iteration"},
                    {"iterations", 10},
                    {"real_time", device_ms * jitter},
                    {"cpu_time", device_ms},
                    {"time_unit", "ms"},
                    {"bytes_per_second", 1e9 / (device_ms * jitter)},
                    {"items_per_second", 1e6},
                    {"host_get_workspace_seconds", get_workspace_s * jitter},
                    {"host_launch_seconds", launch_s * jitter},
                    {"label", "device time: events"}});
  }
  return {{"context",
           {{"date", "2026-11-28"},
            {kContextProvider, "cpu"},
            {kContextSoc, "Ascend910B3"},
            {kContextDeviceTime, "events"}}},
          {"benchmarks", runs}};
}

std::map<Figure, ChangeVerdict> Verdicts(const json& base, const json& candidate) {
  const Comparison comparison = CompareBenchmarkOutputs(
      ReadBenchmarkSamples(base, "base.json"), ReadBenchmarkSamples(candidate, "new.json"), {});
  std::map<Figure, ChangeVerdict> verdicts;
  for (const BenchmarkChange& change : comparison.changes) {
    EXPECT_EQ(change.name, "op");  // "/manual_time" is not part of the point's name
    verdicts[change.figure] = change.verdict;
  }
  return verdicts;
}

TEST(HostFigures, CompareJudgesEachFigureApart) {
  const json base = Output(2, 10e-6, 5e-6);
  const auto launch = Verdicts(base, Output(2, 10e-6, 8e-6));
  EXPECT_EQ(launch.at(Figure::kHostLaunch), ChangeVerdict::kRegression);
  EXPECT_EQ(launch.at(Figure::kHostGetWorkspace), ChangeVerdict::kNoChange);
  EXPECT_EQ(launch.at(Figure::kDevice), ChangeVerdict::kNoChange);
  const auto tiling = Verdicts(base, Output(2, 14e-6, 5e-6));
  EXPECT_EQ(tiling.at(Figure::kHostGetWorkspace), ChangeVerdict::kRegression);
  EXPECT_EQ(tiling.at(Figure::kHostLaunch), ChangeVerdict::kNoChange);
  EXPECT_EQ(tiling.at(Figure::kDevice), ChangeVerdict::kNoChange);
  const auto kernel = Verdicts(base, Output(2.6, 10e-6, 5e-6));
  EXPECT_EQ(kernel.at(Figure::kDevice), ChangeVerdict::kRegression);
  EXPECT_EQ(kernel.at(Figure::kHostGetWorkspace), ChangeVerdict::kNoChange);
  EXPECT_EQ(kernel.at(Figure::kHostLaunch), ChangeVerdict::kNoChange);
}

TEST(HostFigures, AFileWithoutCountersIsJudgedByItsTimeAlone) {
  json old = Output(2, 10e-6, 5e-6);
  for (json& run : old["benchmarks"]) {
    run.erase("host_get_workspace_seconds");
    run.erase("host_launch_seconds");
  }
  const auto verdicts = Verdicts(old, Output(2, 50e-6, 50e-6));
  EXPECT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts.at(Figure::kDevice), ChangeVerdict::kNoChange);
}

TEST(HostFigures, TheHistoryLineKeepsThemApartAndTheTrendNamesTheFigure) {
  const auto before = BenchHistoryEntries(Output(2, 10e-6, 5e-6));
  ASSERT_EQ(before.size(), 1u);
  EXPECT_EQ(before[0].name, "op");
  EXPECT_EQ(before[0].device_time, "events");
  ASSERT_EQ(before[0].host_launch_seconds_repetitions.size(), 5u);
  EXPECT_DOUBLE_EQ(before[0].host_launch_seconds_repetitions[2], 5e-6 * 1.02);
  EXPECT_DOUBLE_EQ(before[0].host_get_workspace_seconds_repetitions[4], 10e-6 * 1.04);

  // The lines AppendBenchHistory writes, read back as the trend page reads them.
  const auto line = [](const BenchHistoryEntry& entry, const std::string& date) {
    json out = {
        {"name", entry.name},
        {"date", date},
        {"bytes_per_second", entry.bytes_per_second},
        {"bytes_per_second_repetitions", entry.bytes_per_second_repetitions},
        {"provider", entry.provider},
        {"soc", entry.soc},
        {"device_time", entry.device_time},
        {"host_get_workspace_seconds_repetitions", entry.host_get_workspace_seconds_repetitions},
        {"host_launch_seconds_repetitions", entry.host_launch_seconds_repetitions}};
    return out;
  };
  const auto after = BenchHistoryEntries(Output(2, 10e-6, 9e-6));
  const json trends = TrendData({line(before[0], "2026-11-01"), line(after[0], "2026-11-02")},
                                "bench.jsonl", {}, "runs.jsonl");
  const json& runs = trends.at("bench").at(0).at("runs");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[1].at("regressions"), json::array({"host launch"}));
  EXPECT_EQ(runs[1].at("regression"), false);  // the device time did not change
  EXPECT_NEAR(runs[1].at("host_launch").at("median").get<double>(), 9e-6 * 1.02, 1e-15);
  EXPECT_EQ(runs[0].at("regressions"), json::array());
}

}  // namespace
}  // namespace aclnn_check
