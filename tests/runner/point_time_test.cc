// Each test point's time by stage (docs/contract/reports.md, "stage_seconds"), as `aclnn-check run`
// writes it into report.json and the journal: every point that generated data and was called spent
// time in each stage, the stages fit in the point's seconds, and the journal's lines carry the
// same.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "support/harness_process.h"
#include "support/source_files.h"
#include "support/temp_dir.h"

namespace aclnn_check {
namespace {

using nlohmann::json;
using testing::ExitCode;
using testing::ReadFile;
using testing::StartHarness;
using testing::TempDir;

const char* kSuite = R"({
  "name": "timed", "op": "HardswishBackward",
  "axes": {"dtype": ["float32", "float16"], "shape": [[5], [64, 33], []]},
  "inputs": {"self": {"dist": "uniform", "low": -5, "high": 5, "specials": ["-3", "3", "nan"]}},
  "layout": ["contiguous", "strided:2"], "seed": 11})";

// The run's report.json, after checking that the journal's lines hold the same stages.
json RunAndRead(const TempDir& dir, const std::string& name,
                const std::vector<std::string>& extra) {
  const std::filesystem::path report = dir.path() / name;
  std::vector<std::string> arguments = {"run",           (dir.path() / "cases").string(),
                                        "--jobs",        "2",
                                        "--run-history", "",
                                        "--report-dir",  report.string()};
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  const std::filesystem::path log = dir.path() / (name + ".log");
  EXPECT_EQ(ExitCode(StartHarness(arguments, log)), 0) << ReadFile(log);
  json written = json::parse(ReadFile(report / "report.json"));
  std::map<std::string, json> reported;
  for (const json& point : written.at("test_points"))
    reported[point.at("id")] = point.value("stage_seconds", json());
  std::ifstream journal(report / "journal.jsonl");
  std::string line;
  std::getline(journal, line);  // the header
  size_t lines = 0;
  while (std::getline(journal, line)) {
    const json entry = json::parse(line);
    ++lines;
    EXPECT_EQ(entry.value("stage_seconds", json()), reported[entry.at("id")]) << entry.at("id");
  }
  EXPECT_EQ(lines, reported.size());
  return written;
}

// `stages`: the ones a computed point must have spent time in.
void ExpectStages(const json& report, const std::vector<std::string>& stages, bool repeat) {
  const std::set<std::string> known = {"prepare",   "call",   "reference", "check",
                                       "precision", "repeat", "patterns"};
  size_t computed = 0;
  for (const json& point : report.at("test_points")) {
    const std::string id = point.at("id");
    ASSERT_TRUE(point.contains("stage_seconds")) << id;
    const json& split = point.at("stage_seconds");
    double sum = 0;
    for (const auto& [stage, seconds] : split.items()) {
      EXPECT_TRUE(known.contains(stage)) << id << ": unknown stage " << stage;
      ASSERT_TRUE(seconds.is_number()) << id << " " << stage;
      EXPECT_GE(seconds.get<double>(), 0) << id << " " << stage;
      sum += seconds.get<double>();
    }
    for (const char* always : {"prepare", "call", "reference", "check", "precision"})
      EXPECT_TRUE(split.contains(always)) << id << ": no " << always;
    EXPECT_EQ(split.contains("repeat"), repeat && point.at("status") == 0) << id;
    EXPECT_FALSE(split.contains("patterns")) << id;
    // Each stage is rounded to 0.1 µs.
    EXPECT_LE(sum, point.at("seconds").get<double>() + 1e-6)
        << id << ": the stages exceed the point's seconds";
    if (point.at("status") != 0 || point.at("execute_status") != 0) continue;
    ++computed;
    for (const std::string& stage : stages)
      EXPECT_GT(split.value(stage, 0.0), 0) << id << ": no time in " << stage;
  }
  EXPECT_GT(computed, 10u);
}

TEST(PointTime, EveryPointSplitsItsSecondsIntoStagesInTheReportAndTheJournal) {
  TempDir dir;
  dir.Write("cases/timed.json", kSuite);
  ExpectStages(RunAndRead(dir, "plain", {}), {"prepare", "call", "reference", "check"}, false);
}

TEST(PointTime, RepeatedCallsAreAStageOfTheirOwn) {
  TempDir dir;
  dir.Write("cases/timed.json", kSuite);
  ExpectStages(RunAndRead(dir, "repeat", {"--repeat", "2"}),
               {"prepare", "call", "reference", "check", "repeat"}, true);
}

}  // namespace
}  // namespace aclnn_check
