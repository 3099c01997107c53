// `report trends` (issue 27 item 8): the trend data from both histories (regressions as `bench
// compare` flags them, runs by date, the conformance line `run` appends), the page's conventions,
// the command line, and the page drawn in headless Chromium.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report/bench_history.h"
#include "report/html_resources.h"
#include "report/run_history.h"
#include "report/trend_data.h"
#include "report/trend_page.h"
#include "cli/run_command.h"
#include "support/dom_tags.h"
#include "support/headless_chromium.h"
#include "support/source_files.h"
#include "support/temp_dir.h"
#include "json_input/input_error.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

json BenchLine(const std::string& name, const std::string& date, const std::string& provider,
               const std::vector<double>& repetitions) {
  json line = {{"name", name},         {"date", date},     {"bytes_per_second", repetitions[repetitions.size() / 2]},
               {"items_per_second", 1}, {"git_revision", "rev-" + date}, {"provider", provider},
               {"soc", "Ascend910B3"}, {"host", "box"}};
  if (repetitions.size() > 1) line["bytes_per_second_repetitions"] = repetitions;
  return line;
}

// Three cpu runs of one benchmark and a ref run between them (written out of date order): the
// second cpu run is 20 % slower in every repetition (time +25 %, U test p = 0.008 over 5 and 5), the
// third matches the second. The ref run is far slower but is another provider: never a BASE for cpu.
std::vector<json> BenchHistory() {
  return {BenchLine("HardswishBackward/float32", "2026-11-03", "cpu", {80, 81, 79, 80, 82}),
          BenchLine("HardswishBackward/float32", "2026-11-01", "cpu", {100, 101, 99, 100, 102}),
          BenchLine("HardswishBackward/float32", "2026-11-02", "cpu", {80, 81, 79, 80, 82}),
          BenchLine("HardswishBackward/float32", "2026-11-01T12", "ref", {10, 11, 9, 10, 12}),
          // Only medians (lines written before repetitions were recorded): the threshold alone.
          BenchLine("LogitGrad/float16", "2026-11-01", "cpu", {200}),
          BenchLine("LogitGrad/float16", "2026-11-02", "cpu", {150})};
}

json RunLine(const std::string& date, int passed, int failed, double max_ulp, int nonfinite = 0) {
  return {{"date", date}, {"git_revision", "rev-" + date}, {"provider", "cpu"}, {"soc", "Ascend910B3"},
          {"product", "A2"}, {"host", "box"},
          {"totals", {{"test_points", passed + failed}, {"passed", passed}, {"failed", failed}, {"errors", 0}, {"not_provided", 0}}},
          {"operators", {{{"op", "LogitGrad"}, {"dtype", "float16"}, {"test_points", passed + failed}, {"passed", passed},
                          {"failed", failed}, {"errors", 0}, {"not_provided", 0}, {"max_ulp", max_ulp}, {"nonfinite_ulp", nonfinite}}}}};
}

std::vector<json> RunHistory() {
  return {RunLine("2026-11-02T10:00:00Z", 90, 10, 37, 1), RunLine("2026-11-01T10:00:00Z", 100, 0, 1)};
}

// The benchmark history keeps every repetition's rate (aggregates left out), so that the trend page
// can apply bench compare's U test and draw the spread.
TEST(BenchHistoryRepetitions, EachRepetitionsRateIsRecordedInFileOrder) {
  const auto run = [](double rate, const char* type) {
    return json{{"name", "a"}, {"run_name", "a"}, {"run_type", type}, {"real_time", 1.0},
                {"time_unit", "ms"}, {"bytes_per_second", rate}};
  };
  const json output = {{"context", {{"date", "2026-11-23"}}},
                       {"benchmarks", {run(3e9, "iteration"), run(1e9, "iteration"), run(2e9, "iteration"), run(9e9, "aggregate")}}};
  const std::vector<BenchHistoryEntry> entries = BenchHistoryEntries(output);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].bytes_per_second_repetitions, (std::vector<double>{3e9, 1e9, 2e9}));
  testing::TempDir dir;
  AppendBenchHistory(dir.path() / "h.jsonl", entries);
  const std::vector<json> lines = ReadJsonLines(dir.path() / "h.jsonl", "benchmark history");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].at("bytes_per_second_repetitions"), json({3e9, 1e9, 2e9}));
}

TEST(TrendData, MarksWhatBenchCompareWouldFlagAgainstThePreviousRunOfTheSameProvider) {
  const json data = TrendData(BenchHistory(), "bench.jsonl", RunHistory(), "runs.jsonl");
  ASSERT_EQ(data.at("bench").size(), 2u);
  const json& hardswish = data.at("bench")[0];
  EXPECT_EQ(hardswish.at("name"), "HardswishBackward/float32");
  const json& runs = hardswish.at("runs");
  ASSERT_EQ(runs.size(), 4u);
  // By date: cpu 11-01, ref 11-01T12, cpu 11-02, cpu 11-03.
  EXPECT_EQ(runs[0].at("date"), "2026-11-01");
  EXPECT_EQ(runs[1].at("provider"), "ref");
  EXPECT_EQ(runs[0].at("regression"), false);
  EXPECT_TRUE(runs[0].at("compared_with").is_null());
  EXPECT_TRUE(runs[1].at("compared_with").is_null());  // no earlier ref run
  EXPECT_EQ(runs[2].at("regression"), true);
  EXPECT_EQ(runs[2].at("compared_with"), 0);           // the cpu run, not the slower ref one
  EXPECT_NEAR(runs[2].at("change").get<double>(), 0.25, 1e-12);
  EXPECT_LT(runs[2].at("p_value").get<double>(), 0.05);
  EXPECT_EQ(runs[3].at("regression"), false);
  EXPECT_EQ(runs[2].at("median"), 80);
  EXPECT_EQ(runs[2].at("low"), 79);
  EXPECT_EQ(runs[2].at("high"), 82);
  EXPECT_EQ(runs[2].at("repetitions"), 5);
  // One median per run: the threshold decides (200 -> 150 B/s is a third more time).
  const json& logit = data.at("bench")[1].at("runs");
  EXPECT_EQ(logit[1].at("regression"), true);
  EXPECT_TRUE(logit[1].at("p_value").is_null());

  const json& conformance = data.at("conformance");
  ASSERT_EQ(conformance.at("runs").size(), 2u);
  EXPECT_EQ(conformance.at("runs")[0].at("passed"), 100);  // sorted by date
  EXPECT_EQ(conformance.at("runs")[1].at("failed"), 10);
  const json& worst = conformance.at("worst_ulp").at(0);
  EXPECT_EQ(worst.at("op"), "LogitGrad");
  EXPECT_EQ(worst.at("points")[1].at("run"), 1);
  EXPECT_EQ(worst.at("points")[1].at("max_ulp"), 37);
  EXPECT_EQ(worst.at("points")[1].at("nonfinite"), 1);
}

TEST(TrendData, AMalformedLineNamesTheFileLineAndField) {
  std::vector<json> bench = BenchHistory();
  bench[2].erase("bytes_per_second");
  try {
    TrendData(bench, "bench.jsonl", {}, "runs.jsonl");
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()), "bench.jsonl: line 3/bytes_per_second: expected a number");
  }
  testing::TempDir dir;
  const auto file = dir.Write("runs.jsonl", RunLine("a", 1, 0, 0).dump() + "\n\nnot json\n");
  try {
    ReadJsonLines(file, "conformance history");
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(error.pointer(), "line 3");
    EXPECT_EQ(error.file(), file.string());
  }
}

// `run` appends one line per finished run; the line's counts are the report's.
TEST(RunHistory, EachRunAppendsItsTotalsAndWorstUlpPerOperatorAndDtype) {
  testing::TempDir dir;
  dir.Write("cases/logit.json", R"({"name": "history", "op": "LogitGrad",
    "axes": {"dtype": ["float16", "float32"], "shape": [[64]], "eps": [0.1]}, "seed": 2})");
  RunOptions options;
  options.cases = {(dir.path() / "cases").string()};
  options.report_dir = (dir.path() / "report").string();
  options.run_history = (dir.path() / "history/runs.jsonl").string();
  options.isolate = false;
  ASSERT_EQ(aclnn_check::Run(options), 0);
  ASSERT_EQ(aclnn_check::Run(options), 0);
  const std::vector<json> lines = ReadJsonLines(options.run_history, "conformance history");
  ASSERT_EQ(lines.size(), 2u);
  const json report = json::parse(testing::ReadFile(dir.path() / "report/report.json"));
  EXPECT_EQ(lines[1].at("totals"), report.at("totals"));
  EXPECT_EQ(lines[1].at("git_revision"), report.at("run").at("git_revision"));
  ASSERT_EQ(lines[1].at("operators").size(), 2u);
  for (const json& entry : lines[1].at("operators")) {
    EXPECT_EQ(entry.at("op"), "LogitGrad");
    EXPECT_EQ(entry.at("passed"), 1);
    double worst = 0;
    for (const json& point : report.at("test_points")) {
      if (point.at("dtype") == entry.at("dtype")) worst = point.at("outputs")[0].at("metrics").at("max_ulp").get<double>();
    }
    EXPECT_EQ(entry.at("max_ulp").get<double>(), worst);
  }
}

TEST(TrendPage, LoadsNothingAndItsScriptNeverWritesMarkup) {
  const std::string script = kTrendScript, style = kTrendStyle, page = kTrendPage;
  for (const char* markup_sink : {"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"}) {
    EXPECT_EQ(script.find(markup_sink), std::string::npos) << markup_sink;
  }
  const std::string svg_namespace = "http://www.w3.org/2000/svg";
  for (std::string resource : {script, style, page}) {
    for (size_t at = resource.find(svg_namespace); at != std::string::npos; at = resource.find(svg_namespace)) {
      resource.erase(at, svg_namespace.size());
    }
    for (const char* fetch : {"http:", "https:", "url(", "@import", "fetch(", "XMLHttpRequest", "src=", "<link"}) {
      EXPECT_EQ(resource.find(fetch), std::string::npos) << fetch;
    }
  }
  const std::string html = TrendPage(TrendData(BenchHistory(), "b", RunHistory(), "r"), {"</ul><script>x</script>"});
  EXPECT_NE(html.find("default-src 'none'"), std::string::npos);
  EXPECT_NE(html.find("script-src 'sha256-"), std::string::npos);
  EXPECT_EQ(html.find("<script>x"), std::string::npos);  // the source line is escaped
}

TEST(TrendPage, TheCommandLineWritesTrendsHtmlAndRefusesNoHistory) {
  testing::TempDir dir;
  std::string bench, runs;
  for (const json& line : BenchHistory()) bench += line.dump() + "\n";
  for (const json& line : RunHistory()) runs += line.dump() + "\n";
  const auto bench_file = dir.Write("bench.jsonl", bench);
  const auto run_file = dir.Write("runs.jsonl", runs);
  const std::string cli = ACLNN_CHECK_CLI;
  const std::string out = (dir.path() / "out").string();
  ASSERT_EQ(std::system((cli + " report trends --bench-history '" + bench_file.string() + "' --run-history '" +
                         run_file.string() + "' -o '" + out + "' >/dev/null").c_str()), 0);
  const std::string html = testing::ReadFile(dir.path() / "out/trends.html");
  EXPECT_NE(html.find("HardswishBackward/float32"), std::string::npos);
  EXPECT_EQ(WEXITSTATUS(std::system((cli + " report trends --bench-history '" + (dir.path() / "none").string() +
                                     "' --run-history '' -o '" + out + "' 2>/dev/null").c_str())), 2);
}

class TrendPageInBrowser : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto found = testing::FindChromium();
    if (!found) GTEST_SKIP() << "Chromium not found (Debian package chromium, or set ACLNN_CHECK_CHROMIUM): trends.html is not tested in a browser here";
    chromium_ = *found;
  }
  std::string chromium_;
};

TEST_F(TrendPageInBrowser, OnePlotPerBenchmarkAndPerOperatorDtypeWithRegressionsMarked) {
  const std::filesystem::path dir = std::filesystem::path(ACLNN_CHECK_BINARY_DIR) / "test-artifacts/trends";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::filesystem::path page = dir / "trends.html";
  std::ofstream(page) << TrendPage(TrendData(BenchHistory(), "b", RunHistory(), "r"), {"test data"});
  const testing::BrowserRun run = testing::RunChromium(chromium_, testing::FileUrl(page), {"--dump-dom"}, dir / "chromium.log", 90);
  ASSERT_EQ(run.exit_code, 0) << "see " << (dir / "chromium.log");
  const auto bodies = testing::StartTags(run.output, "body");
  ASSERT_EQ(bodies.size(), 1u);
  ASSERT_EQ(bodies[0].count("data-rendered"), 1u) << (bodies[0].count("data-render-error") ? bodies[0].at("data-render-error") : "");

  std::map<std::string, testing::Attributes> bench, worst;
  int counts = 0;
  for (const testing::Attributes& figure : testing::StartTags(run.output, "figure")) {
    if (figure.count("data-bench")) bench[figure.at("data-bench")] = figure;
    if (figure.count("data-worst-ulp")) worst[figure.at("data-worst-ulp")] = figure;
    if (figure.count("data-conformance")) counts += 1;
  }
  ASSERT_EQ(bench.size(), 2u);
  EXPECT_EQ(bench.at("HardswishBackward/float32").at("data-runs"), "4");
  EXPECT_EQ(bench.at("HardswishBackward/float32").at("data-regressions"), "1");
  EXPECT_EQ(bench.at("LogitGrad/float16").at("data-regressions"), "1");
  EXPECT_EQ(counts, 1);
  ASSERT_EQ(worst.size(), 1u);
  EXPECT_TRUE(worst.count("LogitGrad/float16"));
  size_t marked = 0;
  for (const testing::Attributes& group : testing::StartTags(run.output, "g")) marked += testing::HasClass(group, "regression-run");
  EXPECT_EQ(marked, 2u);
  // Hover text names revision and provider.
  EXPECT_NE(run.output.find("rev-2026-11-02 · provider cpu · Ascend910B3"), std::string::npos);
  EXPECT_NE(run.output.find("REGRESSION"), std::string::npos);
}

}  // namespace
}  // namespace aclnn_check
