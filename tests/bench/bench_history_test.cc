// The benchmark history: one line per benchmark with the median of its repetitions and the run's
// revision, provider and SoC; lines are appended, never rewritten.
#include "report/bench_history.h"

#include <gtest/gtest.h>

#include <fstream>

#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

json IterationRun(const std::string& name, double bytes_per_second,
                  const std::string& run_type = "iteration") {
  return {{"name", name},
          {"run_name", name},
          {"run_type", run_type},
          {"real_time", 1.0},
          {"time_unit", "ms"},
          {"bytes_per_second", bytes_per_second},
          {"items_per_second", bytes_per_second / 4}};
}

TEST(BenchHistory, OneEntryPerBenchmarkWithTheMedianOfItsRepetitions) {
  json output = {{"context",
                  {{"date", "2026-11-23T11:00:00+00:00"},
                   {"host_name", "box"},
                   {kContextGitRevision, "abc123"},
                   {kContextProvider, "cpu"},
                   {kContextSoc, "Ascend910B3"}}},
                 {"benchmarks",
                  {IterationRun("a", 3e9), IterationRun("a", 1e9), IterationRun("a", 2e9),
                   IterationRun("a", 9e9, "aggregate"), IterationRun("b", 4e9)}}};
  json failed = IterationRun("c", 5e9);
  failed["error_occurred"] = true;
  output["benchmarks"].push_back(failed);
  const std::vector<BenchHistoryEntry> entries = BenchHistoryEntries(output);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].name, "a");
  EXPECT_EQ(entries[0].bytes_per_second, 2e9);  // median of 3, 1, 2; the aggregate is skipped
  EXPECT_EQ(entries[0].items_per_second, 0.5e9);
  EXPECT_EQ(entries[0].git_revision, "abc123");
  EXPECT_EQ(entries[0].provider, "cpu");
  EXPECT_EQ(entries[0].soc, "Ascend910B3");
  EXPECT_EQ(entries[0].host, "box");
  EXPECT_EQ(entries[0].date, "2026-11-23T11:00:00+00:00");
  EXPECT_EQ(entries[1].name, "b");
  EXPECT_EQ(entries[1].bytes_per_second, 4e9);
}

TEST(BenchHistory, WithoutContextKeysTheRunIsUnknown) {
  const auto entries = BenchHistoryEntries({{"benchmarks", {IterationRun("a", 1e9)}}});
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].git_revision, "unknown");
  EXPECT_EQ(entries[0].provider, "unknown");
}

TEST(BenchHistory, AppendsJsonLinesAndCreatesTheFolder) {
  testing::TempDir dir;
  const auto file = dir.path() / "bench/history.jsonl";
  AppendBenchHistory(file, {{"a", "d1", 1e9, 2e8, "r1", "cpu", "Ascend910B3", "box"}});
  AppendBenchHistory(file, {{"a", "d2", 2e9, 4e8, "r2", "ref", "Ascend310P3", "box"},
                            {"b", "d2", 3e9, 6e8, "r2", "ref", "Ascend310P3", "box"}});
  std::ifstream in(file);
  std::vector<json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0]["git_revision"], "r1");
  EXPECT_EQ(lines[1]["bytes_per_second"], 2e9);
  EXPECT_EQ(lines[2]["name"], "b");
  EXPECT_EQ(lines[2]["soc"], "Ascend310P3");
  EXPECT_EQ(lines[2]["provider"], "ref");
}

}  // namespace
}  // namespace aclnn_check
