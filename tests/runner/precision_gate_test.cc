// CANN's standards as verdicts of `run` (docs/contract/numerics.md, docs/precision-standards.md),
// end to end on the bundled cpu provider and the planted truncation of tests/faulty_provider
// (kBiasedRounding: 16-bit outputs truncated toward zero, every single error under 1 ULP).
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "golden/golden_record.h"
#include "golden/recorded_comparator.h"
#include "device_access/loader.h"
#include "cli/run_command.h"
#include "support/source_files.h"
#include "support/temp_dir.h"
#include "check/rule_ids.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

// 16-bit HardswishBackward with values well inside the normal range (|golden| far above the
// small-value thresholds), so truncation shows in MERE and RMSE.
const char* kCase = R"({
  "name": "gate", "op": "HardswishBackward",
  "axes": {"dtype": ["float16", "bfloat16"], "shape": [[4096], [3, 65, 7]]},
  "inputs": {"gradOutput": {"dist": "uniform", "low": 1, "high": 4},
             "self": {"dist": "uniform", "low": -2.5, "high": 2.5}},
  "seed": 11})";

std::string Truncating() { return BundledProviderDir() + "/libaclnn_faulty_biasedrounding.so"; }

struct Outcome {
  int exit_code = -1;
  json report;
};

Outcome RunGate(const testing::TempDir& dir, const std::string& provider, PrecisionGateOptions precision,
                const std::string& case_text = kCase) {
  dir.Write("cases/gate.json", case_text);
  RunOptions options;
  options.cases = {(dir.path() / "cases").string()};
  options.provider = provider;
  options.report_dir = (dir.path() / "report").string();
  options.run_history = "";
  options.precision = std::move(precision);
  Outcome outcome;
  outcome.exit_code = Run(options);
  outcome.report = json::parse(testing::ReadFile(dir.path() / "report/report.json"));
  return outcome;
}

std::vector<std::string> FailedRules(const json& point) {
  std::vector<std::string> rules;
  for (const json& f : point.at("failures")) rules.push_back(f.at("rule"));
  return rules;
}

PrecisionGateOptions DoubleL2(const std::string& comparator_provider) {
  PrecisionGateOptions precision;
  precision.verdict = ParseVerdicts({"double_bm:L2"});
  precision.comparator_provider = comparator_provider;
  return precision;
}

TEST(PrecisionGate, MetricsAreReportedForEveryOutputWithTheElementVerdict) {
  testing::TempDir dir;
  const Outcome outcome = RunGate(dir, "cpu", {});
  EXPECT_EQ(outcome.exit_code, 0);
  int outputs = 0;
  for (const json& point : outcome.report.at("test_points")) {
    if (point.at("outputs").empty()) continue;
    EXPECT_EQ(point.at("precision").at("verdicts"), "element");
    for (const json& output : point.at("outputs")) {
      ++outputs;
      const json& p = output.at("precision");
      EXPECT_TRUE(p.at("single_bm").at("passed").get<bool>()) << point.at("id");
      EXPECT_GT(p.at("device").at("normal_elements").get<int64_t>(), 0);
      EXPECT_NE(p.at("benchmark_missing").get<std::string>().find("no comparator given"), std::string::npos);
    }
  }
  EXPECT_EQ(outputs, 4);
  const std::string junit = testing::ReadFile(dir.path() / "report/junit.xml");
  EXPECT_NE(junit.find("no benchmark: no comparator given"), std::string::npos);
  EXPECT_NE(junit.find("single_bm passed (MERE"), std::string::npos);
  const std::string html = testing::ReadFile(dir.path() / "report/report.html");
  EXPECT_NE(html.find("id=\"precision-standards\""), std::string::npos);
}

TEST(PrecisionGate, TheCpuProviderPassesL2AgainstItselfAndTruncationFails) {
  testing::TempDir healthy_dir, planted_dir;
  const Outcome healthy = RunGate(healthy_dir, "cpu", DoubleL2("cpu"));
  EXPECT_EQ(healthy.exit_code, 0);
  for (const json& point : healthy.report.at("test_points")) {
    for (const json& output : point.at("outputs")) {
      EXPECT_EQ(output.at("precision").at("ratios").at("mere"), 1.0) << point.at("id");
    }
  }
  const Outcome planted = RunGate(planted_dir, Truncating(), DoubleL2("cpu"));
  EXPECT_EQ(planted.exit_code, 1);
  int failed = 0;
  for (const json& point : planted.report.at("test_points")) {
    if (point.at("outputs").empty()) continue;
    ++failed;
    EXPECT_EQ(FailedRules(point), std::vector<std::string>{"precision.double_bm.L2"}) << point.at("id");
    const json& ratios = point.at("outputs")[0].at("precision").at("ratios");
    // Truncation makes errors uniform in [0, 1) ULP instead of [0, 1/2]: MERE and RMSE about twice.
    EXPECT_GT(ratios.at("mere").get<double>(), 1.5) << point.at("id");
    EXPECT_GT(ratios.at("rmse").get<double>(), 1.5) << point.at("id");
    // The element check did not decide: its rounding-bias finding is advisory.
    ASSERT_TRUE(point.contains("advisory_findings")) << point.at("id");
    EXPECT_EQ(point.at("advisory_findings")[0].at("rule"), rule_ids::kRoundingBias);
  }
  EXPECT_EQ(failed, 4);
}

TEST(PrecisionGate, TheSingleBenchmarkAloneLetsTruncationPass) {
  // Truncation stays under the single benchmark's thresholds: why the double benchmark exists.
  testing::TempDir dir;
  PrecisionGateOptions precision;
  precision.verdict = ParseVerdicts({"single_bm"});
  const Outcome outcome = RunGate(dir, Truncating(), precision);
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_EQ(outcome.report.at("totals").at("failed"), 0);
}

TEST(PrecisionGate, ACaseFileNamesItsVerdict) {
  testing::TempDir dir;
  std::string text = kCase;
  text.insert(text.rfind('}'), R"(, "verdict": ["element", "double_bm:L1"])");
  PrecisionGateOptions precision;
  precision.comparator_provider = "cpu";
  const Outcome outcome = RunGate(dir, Truncating(), precision, text);
  EXPECT_EQ(outcome.exit_code, 1);
  const json& point = outcome.report.at("test_points")[0];
  EXPECT_EQ(point.at("precision").at("verdicts"), "element,double_bm:L1");
  const std::vector<std::string> rules = FailedRules(point);
  EXPECT_NE(std::find(rules.begin(), rules.end(), "precision.double_bm.L1"), rules.end());
  EXPECT_NE(std::find(rules.begin(), rules.end(), rule_ids::kRoundingBias), rules.end());
  // The repro line names the comparator with the current spelling.
  const std::string repro = point.at("repro");
  EXPECT_NE(repro.find(" --comparator-provider 'cpu'"), std::string::npos) << repro;
}

TEST(PrecisionGate, ARecheckBelowTwoHundredRunsFailsAndTwoHundredConfirmsTheFault) {
  testing::TempDir few_dir, many_dir;
  std::string one_point = kCase;
  const std::string shapes = "[[4096], [3, 65, 7]]";
  one_point.replace(one_point.find(shapes), shapes.size(), "[[512]]");
  PrecisionGateOptions few = DoubleL2("cpu");
  few.recheck = 20;
  const Outcome short_recheck = RunGate(few_dir, Truncating(), few, one_point);
  EXPECT_EQ(short_recheck.exit_code, 1);
  const json& recheck = short_recheck.report.at("test_points")[0].at("precision").at("recheck");
  EXPECT_EQ(recheck.at("runs"), 20);
  EXPECT_NE(recheck.at("why").get<std::string>().find("fewer than the standard's 200"), std::string::npos);

  PrecisionGateOptions many = DoubleL2("cpu");
  many.recheck = 200;
  const Outcome full = RunGate(many_dir, Truncating(), many, one_point);
  EXPECT_EQ(full.exit_code, 1);
  for (const json& point : full.report.at("test_points")) {
    const json& r = point.at("precision").at("recheck");
    EXPECT_EQ(r.at("runs"), 200);
    EXPECT_FALSE(r.contains("why"));
    for (const json& interval : r.at("intervals")) {
      EXPECT_GT(interval.at("ci_lower").get<double>(), 1.0) << interval.dump();
      EXPECT_FALSE(interval.at("passed").get<bool>());
    }
  }
}

// A recorded comparator serves the re-check when it holds the fresh-seed runs (`golden record
// --recheck N`, or `golden inputs --recheck N` for tools/torch_comparator_run.py); without them the
// re-check has no runs and the failure stands.
TEST(PrecisionGate, ARecordedRunWithFreshSeedRunsServesTheRecheck) {
  testing::TempDir dir, bare_dir;
  std::string one_point = kCase;
  const std::string shapes = "[[4096], [3, 65, 7]]";
  one_point.replace(one_point.find(shapes), shapes.size(), "[[512]]");
  dir.Write("cases/gate.json", one_point);
  GoldenRecordOptions record;
  record.cases = {(dir.path() / "cases").string()};
  record.provider = "cpu";
  record.output = (dir.path() / "cpu_run.h5").string();
  record.with_inputs = true;
  record.recheck = 200;
  ASSERT_EQ(RecordGolden(record), 0);
  PrecisionGateOptions precision;
  precision.verdict = ParseVerdicts({"double_bm:L2"});
  precision.comparator_run = std::make_shared<RecordedComparator>(std::vector<std::string>{record.output});
  precision.comparator_run_paths = {record.output};
  precision.recheck = 200;
  const Outcome full = RunGate(dir, Truncating(), precision, one_point);
  EXPECT_EQ(full.exit_code, 1);
  ASSERT_EQ(full.report.at("test_points").size(), 2u);
  for (const json& point : full.report.at("test_points")) {
    const std::string repro = point.at("repro");
    EXPECT_NE(repro.find(" --comparator-run "), std::string::npos) << repro;
    EXPECT_NE(repro.find("cpu_run.h5"), std::string::npos) << repro;
    const json& r = point.at("precision").at("recheck");
    EXPECT_EQ(r.at("runs"), 200) << r.dump();
    EXPECT_FALSE(r.contains("why")) << r.dump();
    ASSERT_FALSE(r.at("intervals").empty());
    for (const json& interval : r.at("intervals")) {
      EXPECT_GT(interval.at("ci_lower").get<double>(), 1.0) << interval.dump();
    }
  }

  bare_dir.Write("cases/gate.json", one_point);
  record.cases = {(bare_dir.path() / "cases").string()};
  record.output = (bare_dir.path() / "cpu_run.h5").string();
  record.recheck = 0;
  ASSERT_EQ(RecordGolden(record), 0);
  precision.comparator_run = std::make_shared<RecordedComparator>(std::vector<std::string>{record.output});
  const Outcome bare = RunGate(bare_dir, Truncating(), precision, one_point);
  EXPECT_EQ(bare.exit_code, 1);
  for (const json& point : bare.report.at("test_points")) {
    const json& r = point.at("precision").at("recheck");
    EXPECT_EQ(r.at("runs"), 0);
    EXPECT_NE(r.at("why").get<std::string>().find("fewer than the standard's 200"), std::string::npos);
    EXPECT_NE(r.at("skipped").get<std::string>().find("#recheck"), std::string::npos) << r.dump();
  }
}

TEST(PrecisionGate, ARecordedRunServesAsBenchmarkAndPointsItLacksFail) {
  testing::TempDir dir;
  dir.Write("cases/gate.json", kCase);
  GoldenRecordOptions record;
  record.cases = {(dir.path() / "cases").string()};
  record.provider = "cpu";
  record.filter = "*dtype=float16*";  // not the bfloat16 points
  record.output = (dir.path() / "cpu_run.h5").string();
  record.with_inputs = true;
  ASSERT_EQ(RecordGolden(record), 0);
  PrecisionGateOptions precision;
  precision.verdict = ParseVerdicts({"double_bm:L2"});
  precision.comparator_run = std::make_shared<RecordedComparator>(std::vector<std::string>{record.output});
  const Outcome outcome = RunGate(dir, "cpu", precision);
  EXPECT_EQ(outcome.exit_code, 1);
  for (const json& point : outcome.report.at("test_points")) {
    const bool recorded = point.at("dtype") == "float16";
    EXPECT_EQ(point.at("verdict"), recorded ? "passed" : "failed") << point.at("id");
    if (recorded) continue;
    ASSERT_FALSE(point.at("failures").empty());
    EXPECT_NE(point.at("failures")[0].at("message").get<std::string>().find("has no test point"), std::string::npos)
        << point.at("failures")[0].at("message");
  }
}

TEST(PrecisionGate, ARecordedRunOnOtherInputsIsNotUsed) {
  testing::TempDir dir;
  std::string other_seed = kCase;
  other_seed.replace(other_seed.find("\"seed\": 11"), 10, "\"seed\": 12");  // same ids, other inputs
  dir.Write("other/gate.json", other_seed);
  GoldenRecordOptions record;
  record.cases = {(dir.path() / "other").string()};
  record.output = (dir.path() / "other_run.h5").string();
  record.with_inputs = true;
  ASSERT_EQ(RecordGolden(record), 0);
  PrecisionGateOptions precision;
  precision.verdict = ParseVerdicts({"double_bm:L0"});
  precision.comparator_run = std::make_shared<RecordedComparator>(std::vector<std::string>{record.output});
  const Outcome outcome = RunGate(dir, "cpu", precision);
  EXPECT_EQ(outcome.exit_code, 1);
  const std::string message = outcome.report.at("test_points")[0].at("failures")[0].at("message");
  EXPECT_NE(message.find("differs from the harness's"), std::string::npos) << message;
}

}  // namespace
}  // namespace aclnn_check
