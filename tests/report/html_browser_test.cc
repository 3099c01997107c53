// report.html in headless Chromium: the report of a run with failures (the default
// HardswishBackward suite on a provider with a planted fault) is rendered with the network shut
// off, and the rendered DOM is checked: the failure entries, the matrix cells, filters from the URL
// fragment that hide rows, hostile strings that stay text, and the render time of 10,000 test
// points. A screenshot of the page lands in the build folder (test-artifacts/html_report/). Skipped
// where Chromium is absent.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "device_access/loader.h"
#include "results/atomic_file.h"
#include "report/html_report.h"
#include "cli/run_command.h"
#include "support/dom_tags.h"
#include "support/headless_chromium.h"
#include "support/source_files.h"
#include "support/synthetic_report.h"

namespace aclnn_check {
namespace {

using testing::ReadFile;
using nlohmann::json;
using testing::Attributes;
using testing::HasClass;
using testing::StartTags;

class HtmlReportInBrowser : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto found = testing::FindChromium();
    if (!found) {
      GTEST_SKIP() << "Chromium not found (Debian package chromium, or set ACLNN_CHECK_CHROMIUM): "
                      "report.html is not tested in a browser here";
    }
    chromium_ = *found;
  }

  // A fresh folder under the build tree that outlives the test, for the report and the screenshot.
  std::filesystem::path Artifacts(const std::string& name) {
    const std::filesystem::path dir =
        std::filesystem::path(ACLNN_CHECK_BINARY_DIR) / "test-artifacts/html_report" / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
  }

  // The DOM after the page's script ran; fails the test when the browser or the script did not
  // finish.
  std::string RenderedDom(const std::filesystem::path& page, const std::string& fragment = "") {
    const testing::BrowserRun run =
        testing::RunChromium(chromium_, testing::FileUrl(page, fragment), {"--dump-dom"},
                             page.parent_path() / "chromium.log", 90);
    last_seconds_ = run.seconds;
    EXPECT_EQ(run.exit_code, 0) << "chromium failed or timed out; see "
                                << (page.parent_path() / "chromium.log");
    const auto bodies = StartTags(run.output, "body");
    EXPECT_EQ(bodies.size(), 1u);
    if (bodies.size() == 1) {
      EXPECT_EQ(bodies[0].count("data-rendered"), 1u)
          << "the page's script did not finish: "
          << (bodies[0].count("data-render-error") ? bodies[0].at("data-render-error") : "");
    }
    return run.output;
  }

  std::string chromium_;
  double last_seconds_ = 0;
};

// The default HardswishBackward suite (all but the 4M-element case) on the provider whose boundary
// at self = 3 is wrong: a run with many failures.
json RunWithFailures(const std::filesystem::path& dir) {
  RunOptions options;
  options.cases = {(testing::kSourceDir / "cases/hardswish_backward").string()};
  options.filter = "hardswish_[!l]*";
  options.provider = BundledProviderDir() + "/libaclnn_faulty_wrongboundary.so";
  options.report_dir = dir.string();
  options.jobs = 2;
  EXPECT_EQ(aclnn_check::Run(options), 1);
  return json::parse(ReadFile(dir / "report.json"));
}

std::vector<Attributes> WithClass(const std::vector<Attributes>& tags, const std::string& name) {
  std::vector<Attributes> found;
  for (const Attributes& tag : tags)
    if (HasClass(tag, name)) found.push_back(tag);
  return found;
}

std::vector<Attributes> WithAttribute(const std::vector<Attributes>& tags,
                                      const std::string& name) {
  std::vector<Attributes> found;
  for (const Attributes& tag : tags)
    if (tag.count(name)) found.push_back(tag);
  return found;
}

size_t Visible(const std::vector<Attributes>& tags) {
  size_t visible = 0;
  for (const Attributes& tag : tags) visible += tag.count("hidden") ? 0 : 1;
  return visible;
}

// What the page measured: its script's drawing time, and the time from navigation start to the end
// of the script (loading and parsing the page included).
std::string RenderMs(const std::string& dom, const char* attribute = "data-render-ms") {
  for (const Attributes& p : StartTags(dom, "p")) {
    if (p.count("id") && p.at("id") == "render-time" && p.count(attribute)) return p.at(attribute);
  }
  return "?";
}

std::string Timings(const std::string& dom, double browser_seconds) {
  return "drawn in " + RenderMs(dom) + " ms, " + RenderMs(dom, "data-since-navigation-ms") +
         " ms after navigation start; the whole chromium --dump-dom run took " +
         std::to_string(browser_seconds) + " s";
}

TEST_F(HtmlReportInBrowser, RunWithFailuresShowsItsFailuresMatrixAndFilters) {
  const std::filesystem::path dir = Artifacts("faulty_run");
  const json report = RunWithFailures(dir);
  const std::filesystem::path page = dir / "report.html";
  ASSERT_TRUE(std::filesystem::exists(page));

  struct Counts {
    int passed = 0, failed = 0, skipped = 0;
  };
  std::map<std::pair<std::string, std::string>, Counts> matrix;
  size_t failures = 0, passed = 0, failing_float16 = 0, failing_exhaustive = 0;
  for (const json& point : report["test_points"]) {
    const std::string verdict = point["verdict"];
    Counts& cell = matrix[{point["op"], point["dtype"]}];
    if (verdict == "passed") {
      ++cell.passed;
      ++passed;
    } else if (verdict == "not-provided") {
      ++cell.skipped;
    } else {
      ++cell.failed;
      ++failures;
    }
    if (verdict != "failed") continue;
    failing_float16 += point["dtype"] == "float16";
    failing_exhaustive += point["id"].get<std::string>().find("exhaustive") != std::string::npos;
  }
  ASSERT_GT(failures, 10u);
  ASSERT_GT(failing_float16, 0u);
  ASSERT_LT(failing_float16, failures);

  const std::string dom = RenderedDom(page);
  std::cout << "report.html of the run (" << report["test_points"].size() << " test points, "
            << std::filesystem::file_size(page) << " bytes): " << Timings(dom, last_seconds_)
            << "\n";
  const auto entries = WithClass(StartTags(dom, "li"), "failure");
  EXPECT_EQ(entries.size(), failures);
  EXPECT_EQ(Visible(entries), failures);
  const auto cells = WithClass(StartTags(dom, "td"), "matrix-cell");
  EXPECT_EQ(cells.size(), matrix.size());
  for (const Attributes& cell : cells) {
    const Counts& expected = matrix[{cell.at("data-op"), cell.at("data-dtype")}];
    EXPECT_EQ(cell.at("data-passed"), std::to_string(expected.passed)) << cell.at("data-dtype");
    EXPECT_EQ(cell.at("data-failed"), std::to_string(expected.failed)) << cell.at("data-dtype");
    EXPECT_EQ(cell.at("data-skipped"), std::to_string(expected.skipped)) << cell.at("data-dtype");
    EXPECT_TRUE(HasClass(cell, expected.failed ? "cell-failed" : "cell-passed"))
        << cell.at("data-dtype");
  }
  EXPECT_EQ(WithAttribute(StartTags(dom, "tr"), "data-rule").size(),
            report["rule_coverage"].size());
  EXPECT_EQ(WithAttribute(StartTags(dom, "tr"), "data-verdict").size(),
            report["test_points"].size());
  EXPECT_GE(WithClass(StartTags(dom, "figure"), "plot").size(), 3u);  // float16, bfloat16, float32
  EXPECT_GE(StartTags(dom, "svg").size(), 6u);  // a histogram and a scatter each

  // Filters from the fragment hide rows.
  const std::string only_passed = RenderedDom(page, "status=passed");
  const auto hidden_entries = WithClass(StartTags(only_passed, "li"), "failure");
  EXPECT_EQ(hidden_entries.size(), failures);
  EXPECT_EQ(Visible(hidden_entries), 0u);
  const auto passed_rows = WithAttribute(StartTags(only_passed, "tr"), "data-verdict");
  EXPECT_EQ(passed_rows.size(), passed);
  for (const Attributes& row : passed_rows) EXPECT_EQ(row.at("data-verdict"), "passed");

  const std::string float16_failures = RenderedDom(page, "status=failed&dtype=float16");
  const auto float16_entries = WithClass(StartTags(float16_failures, "li"), "failure");
  EXPECT_EQ(Visible(float16_entries), failing_float16);
  for (const Attributes& entry : float16_entries) {
    if (!entry.count("hidden")) {
      EXPECT_EQ(entry.at("data-dtype"), "float16");
    }
  }
  const std::string searched = RenderedDom(page, "q=exhaustive");
  EXPECT_EQ(Visible(WithClass(StartTags(searched, "li"), "failure")), failing_exhaustive);

  // The screenshot, for people to look at.
  const std::filesystem::path screenshot = dir / "report.png";
  const testing::BrowserRun shot = testing::RunChromium(
      chromium_, testing::FileUrl(page),
      {"--screenshot=" + screenshot.string(), "--window-size=1280,2000", "--hide-scrollbars"},
      dir / "chromium.log", 90);
  EXPECT_EQ(shot.exit_code, 0);
  ASSERT_TRUE(std::filesystem::exists(screenshot));
  EXPECT_GT(std::filesystem::file_size(screenshot), 20'000u);
  EXPECT_EQ(ReadFile(screenshot).substr(0, 8), "\x89PNG\r\n\x1a\n");
  std::cout << "screenshot: " << screenshot.string() << "\n";
}

TEST_F(HtmlReportInBrowser, HostileStringsStayTextInTheRenderedPage) {
  const std::filesystem::path dir = Artifacts("hostile_strings");
  json report = RunWithFailures(dir);
  const std::string img = "<img src=x onerror=alert(1)>";
  const std::string script = "</script><script>document.title='owned'</script>";
  for (json& point : report["test_points"]) {
    if (point["verdict"] != "failed") continue;
    point["id"] = point["id"].get<std::string>() + img;
    point["failures"][0]["message"] = "bad " + img + script;
    point["provider_message"] = script;
    point["repro"] = "aclnn-check run --filter '" + script + "'";
    break;
  }
  report["test_points"][0]["op"] = "Op" + img;
  report["test_points"][0]["dtype"] = "f16" + img;
  report["rule_coverage"][0]["id"] = img;
  report["rule_coverage"][0]["cases"] = json::array({script});
  report["bench_history"] = json::array(
      {{{"name", "bench" + img}, {"date", "2026-01-01"}, {"bytes_per_second", 2e9}},
       {{"name", "bench" + img}, {"date", "2026-01-02" + script}, {"bytes_per_second", 3e9}}});
  const std::filesystem::path page = dir / "hostile.html";
  WriteFileAtomically(page, HtmlReport(report));
  const std::string dom = RenderedDom(page);
  EXPECT_EQ(dom.find("<img"), std::string::npos);
  EXPECT_EQ(StartTags(dom, "script").size(), 2u);
  EXPECT_NE(dom.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
  EXPECT_EQ(dom.find("owned</title>"), std::string::npos);
  EXPECT_EQ(WithAttribute(StartTags(dom, "figure"), "data-bench").size(),
            1u);  // the trend was drawn
  bool hostile_cell = false;
  for (const Attributes& cell : WithClass(StartTags(dom, "td"), "matrix-cell"))
    hostile_cell |= cell.at("data-op") == "Op" + img;
  EXPECT_TRUE(hostile_cell);
}

// The time-by-stage view of a report whose stage seconds are known: per operator and dtype the
// sums of each stage, stages no point spent time in left out, and the slowest points first.
TEST_F(HtmlReportInBrowser, TimeByStageSumsEachStageOfEveryOperatorAndDtype) {
  const std::filesystem::path dir = Artifacts("time_by_stage");
  json report = testing::SyntheticReport(60, 0);
  std::map<std::string, std::map<std::string, double>> expected;  // "op dtype" -> stage -> seconds
  std::string slowest_id;
  double slowest = 0;
  for (size_t i = 0; i < report["test_points"].size(); ++i) {
    json& point = report["test_points"][i];
    const double k = static_cast<double>(i + 1);
    const json stages = {{"prepare", 0.001 * k},
                         {"call", 0.0005},
                         {"reference", 0.0002 * k},
                         {"check", 0.0001},
                         {"precision", 0}};
    point["stage_seconds"] = stages;
    point["seconds"] = 0.0012 * k + 0.0006 + 0.01;  // the stages and 10 ms of bookkeeping
    if (point["seconds"].get<double>() > slowest) {
      slowest = point["seconds"];
      slowest_id = point["id"];
    }
    auto& group =
        expected[point["op"].get<std::string>() + " " + point["dtype"].get<std::string>()];
    for (const auto& [stage, seconds] : stages.items()) group[stage] += seconds.get<double>();
    group["total"] += point["seconds"].get<double>();
  }
  const std::filesystem::path page = dir / "report.html";
  WriteFileAtomically(page, HtmlReport(report));
  const std::string dom = RenderedDom(page);
  for (const Attributes& section : StartTags(dom, "section")) {
    if (section.count("id") && section.at("id") == "timing-section") {
      EXPECT_EQ(section.count("hidden"), 0u);
    }
  }
  const auto rows = WithAttribute(StartTags(dom, "tr"), "data-timing");
  size_t groups = 0, slow = 0;
  for (const Attributes& row : rows) {
    EXPECT_EQ(row.count("data-stage-precision"), 0u) << "a stage no point spent time in is shown";
    EXPECT_EQ(row.count("data-stage-repeat"), 0u);
    double sum = 0;
    for (const char* stage : {"prepare", "call", "reference", "check"}) {
      ASSERT_EQ(row.count(std::string("data-stage-") + stage), 1u)
          << stage << " missing in " << row.at("data-key");
      sum += std::stod(row.at(std::string("data-stage-") + stage));
    }
    EXPECT_LE(sum, std::stod(row.at("data-seconds")) * 1.001) << row.at("data-key");
    if (row.at("data-timing") == "slowest") {
      if (slow++ == 0) {
        EXPECT_EQ(row.at("data-key"), slowest_id);
      }
      continue;
    }
    ++groups;
    ASSERT_EQ(expected.count(row.at("data-key")), 1u) << row.at("data-key");
    const auto& sums = expected.at(row.at("data-key"));
    for (const char* stage : {"prepare", "call", "reference", "check"}) {
      EXPECT_NEAR(std::stod(row.at(std::string("data-stage-") + stage)), sums.at(stage),
                  sums.at(stage) * 1e-3)
          << row.at("data-key") << " " << stage;
    }
    EXPECT_NEAR(std::stod(row.at("data-seconds")), sums.at("total"), sums.at("total") * 1e-3);
  }
  EXPECT_EQ(groups, expected.size());
  EXPECT_EQ(slow, 20u);
}

TEST_F(HtmlReportInBrowser, CallingPatternsSectionShowsEachPatternsCountsOnlyWhenAnyRan) {
  const std::filesystem::path dir = Artifacts("calling_patterns");
  json report = testing::SyntheticReport(10, 0);
  const std::filesystem::path plain = dir / "plain.html";
  WriteFileAtomically(plain, HtmlReport(report));
  for (const Attributes& section : StartTags(RenderedDom(plain), "section")) {
    if (section.count("id") && section.at("id") == "patterns-section") {
      EXPECT_EQ(section.count("hidden"), 1u) << "a run without patterns shows the section";
    }
  }
  report["calling_patterns"] = {
      {"patterns", json::array({{{"rule", "contract.cache_key"}, {"points", 7}, {"passed", 5}, {"failed", 2},
                                 {"waived", 0}, {"not_provided", 0}},
                                {{"rule", "contract.reused_executor"}, {"points", 0}, {"passed", 0},
                                 {"failed", 0}, {"waived", 0}, {"not_provided", 10}}})},
      {"failures", json::array()}};
  const std::filesystem::path page = dir / "report.html";
  WriteFileAtomically(page, HtmlReport(report));
  const std::string dom = RenderedDom(page);
  size_t shown = 0;
  for (const Attributes& section : StartTags(dom, "section")) {
    if (section.count("id") && section.at("id") == "patterns-section") {
      EXPECT_EQ(section.count("hidden"), 0u);
      ++shown;
    }
  }
  EXPECT_EQ(shown, 1u);
  const auto rows = WithAttribute(StartTags(dom, "tr"), "data-pattern");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].at("data-pattern"), "contract.cache_key");
  EXPECT_EQ(rows[0].at("data-points"), "7");
  EXPECT_EQ(rows[0].at("data-failed"), "2");
  EXPECT_EQ(rows[1].at("data-pattern"), "contract.reused_executor");
  EXPECT_EQ(rows[1].at("data-not-provided"), "10");
}

TEST_F(HtmlReportInBrowser, TenThousandTestPointsRenderInTime) {
  const std::filesystem::path dir = Artifacts("ten_thousand_points");
  const std::filesystem::path page = dir / "report.html";
  WriteFileAtomically(page, HtmlReport(testing::SyntheticReport(10000, 20)));
  const std::string dom = RenderedDom(page);
  const std::string render_ms = RenderMs(dom);
  std::cout << "report.html of 10,000 test points (" << std::filesystem::file_size(page)
            << " bytes): " << Timings(dom, last_seconds_) << "\n";
  EXPECT_EQ(WithAttribute(StartTags(dom, "tr"), "data-verdict").size(),
            500u);  // one page of the table
  EXPECT_EQ(WithClass(StartTags(dom, "li"), "failure").size(), 500u);
  EXPECT_EQ(WithClass(StartTags(dom, "td"), "matrix-cell").size(), 15u);
  ASSERT_NE(render_ms, "?");
  EXPECT_LT(std::stod(render_ms), 10'000);
}

}  // namespace
}  // namespace aclnn_check
