// report.html from its generator: strings from case files and providers stay text, the embedded
// data parses back to the page data, the static summary lists every failure, the page loads
// nothing, and a report of 10,000 test points stays under 5 MB.
#include "report/html_report.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>
#include <vector>

#include "core/sha256.h"
#include "report/html_escape.h"
#include "report/html_page_data.h"
#include "report/html_resources.h"
#include "report/html_sections.h"
#include "report/report_files.h"
#include "support/source_files.h"
#include "support/synthetic_report.h"
#include "support/temp_dir.h"
#include "check/rule_ids.h"

namespace aclnn_check {
namespace {

using testing::ReadFile;
using nlohmann::json;

const std::string kImg = "<img src=x onerror=alert(1)>";
const std::string kScriptEnd = "</script><script>alert(2)</script>";
const std::string kComment = "<!-- x";
const std::string kQuote = "rule\" onmouseover=\"alert(3)";

size_t Count(const std::string& text, const std::string& part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size()))
    ++count;
  return count;
}

// A synthetic report with hostile text in every string a case file or a provider can set.
json HostileReport() {
  json report = testing::SyntheticReport(40);
  json& point = report["test_points"][19];  // a failing one
  EXPECT_EQ(point["verdict"], "failed");
  point["id"] = "case" + kScriptEnd + kImg + "/dtype=float16";
  point["case"] = "case" + kImg;
  point["case_file"] = "cases/" + kComment + ".json";
  point["op"] = "Op" + kImg;
  point["dtype"] = "f16" + kQuote;
  point["layout"] = kImg;
  point["provider_message"] = "provider says " + kScriptEnd;
  point["status"] = 161002;
  point["failures"][0]["rule"] = kQuote;
  point["failures"][0]["message"] = "message " + kImg + kComment;
  point["repro"] = "aclnn-check run --filter '" + kScriptEnd + kComment + "'";
  point["outputs"][0]["name"] = "out" + kImg;
  point["outputs"][0]["worst"]["rule"] = kScriptEnd;
  point["outputs"][0]["worst"]["inputs"] = {{"x" + kImg, 1.5}};
  report["run"]["command"] = "aclnn-check run " + kScriptEnd;
  report["run"]["provider"]["spec"] = kImg;
  report["run"]["host"] = kComment;
  report["run"]["overrides"] = json::array({{{"rule", kImg},
                                             {"reason", kScriptEnd},
                                             {"source", kComment},
                                             {"profile", kQuote},
                                             {"waive", true}}});
  report["rule_coverage"][0]["id"] = kImg;
  report["rule_coverage"][0]["description"] = kScriptEnd;
  report["rule_coverage"][0]["cases"] = json::array({kComment});
  report["bench_history"] =
      json::array({{{"name", kImg}, {"date", kScriptEnd}, {"bytes_per_second", 1e9}}});
  return report;
}

std::string EmbeddedData(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"report-data\">";
  const size_t start = html.find(open);
  EXPECT_NE(start, std::string::npos);
  const size_t end = html.find("</script>", start);
  return html.substr(start + open.size(), end - start - open.size());
}

TEST(HtmlEscape, EscapesEveryCharacterThatCanStartMarkupOrEndAnAttribute) {
  EXPECT_EQ(HtmlEscape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(HtmlEscape("plain text ✔"), "plain text ✔");
}

TEST(HtmlEscape, JsonForScriptElementHasNoAngleBracketsAndParsesBack) {
  const json data = {{"s", kScriptEnd + kComment + "&amp;"}, {"n", 1.5}};
  const std::string text = JsonForScriptElement(data);
  EXPECT_EQ(text.find('<'), std::string::npos) << text;
  EXPECT_EQ(text.find('>'), std::string::npos) << text;
  EXPECT_EQ(json::parse(text), data);
}

TEST(HtmlReport, StringsFromCaseFilesAndProvidersAppearAsTextNeverAsMarkup) {
  const std::string html = HtmlReport(HostileReport());
  // The page itself has no <img> and no inline <svg>; scripts and comments are the template's own.
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find(kImg), std::string::npos);
  EXPECT_EQ(html.find(kScriptEnd), std::string::npos);
  EXPECT_EQ(html.find("onmouseover=\""), std::string::npos);
  EXPECT_EQ(Count(html, "<script"), 2u);
  EXPECT_EQ(Count(html, "</script>"), 2u);
  const std::string page = kHtmlReportPage;
  EXPECT_EQ(Count(html, "<!--"), Count(page, "<!--") - Count(page, "<!-- aclnn:"));
  // ... and the text is there, escaped.
  EXPECT_NE(html.find("&lt;img src=x onerror=alert(1)&gt;"), std::string::npos);
  EXPECT_NE(html.find("provider says &lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;"),
            std::string::npos);
  EXPECT_NE(html.find("message &lt;img src=x onerror=alert(1)&gt;&lt;!-- x"), std::string::npos);
  EXPECT_NE(html.find("rule&quot; onmouseover=&quot;alert(3)"), std::string::npos);
  EXPECT_NE(html.find("--filter &#39;&lt;/script&gt;"), std::string::npos);
  // The embedded data has no '<' that could end its element or open a comment.
  EXPECT_EQ(EmbeddedData(html).find('<'), std::string::npos);
}

TEST(HtmlReport, EmbeddedDataParsesBackToThePageData) {
  const json report = HostileReport();
  const std::string html = HtmlReport(report);
  const json parsed = json::parse(EmbeddedData(html));
  EXPECT_EQ(parsed, HtmlPageData(report));
  EXPECT_EQ(parsed["points"][19][0], report["test_points"][19]["id"]);
  EXPECT_EQ(parsed["points"][19][1], report["test_points"][19]["op"]);
  EXPECT_EQ(parsed["bench_history"], report["bench_history"]);
  EXPECT_EQ(Count(html, "id=\"report-data\""), 1u);  // embedded once
}

TEST(HtmlPageData, KeepsWhatThePageDrawsWithPlottedNumbersToFourDigits) {
  json report = testing::SyntheticReport(20);
  json& point = report["test_points"][3];  // NsaCompressGrad: two outputs
  json& output = point["outputs"][1];
  output["metrics"]["max_ulp"] = 2.123456789;
  output["metrics"]["ulp_histogram"][">16"] = 0;
  output["metrics"]["ulp_histogram"]["5-8"] = 7;
  output["worst"]["ulp_error"] = "nan";
  output["worst"]["passed"] = false;
  output["worst"]["inputs"] = {{"key", 3.0}, {"value", -1234567.0}};
  const json data = HtmlPageData(report);
  EXPECT_EQ(data["format"], kHtmlPageDataFormat);
  EXPECT_EQ(data["totals"], report["totals"]);
  EXPECT_EQ(data["rule_coverage"], report["rule_coverage"]);
  EXPECT_FALSE(data.contains("bench_history"));
  const json& row = data["points"][3];
  EXPECT_EQ(row[0], point["id"]);
  EXPECT_EQ(row[1], "NsaCompressGrad");
  EXPECT_EQ(row[2], point["dtype"]);
  EXPECT_EQ(row[3], "passed");
  EXPECT_EQ(row[4], json::array());
  EXPECT_DOUBLE_EQ(row[5].get<double>(), 2.123);  // the larger max ULP of the two
  EXPECT_EQ(row[6],
            json::array({2 * 3900, 2 * 180, 2 * 10, 2 * 3, 7}));  // summed, trailing zeros dropped
  ASSERT_EQ(row[7].size(), 2u);
  const json& first = row[7][0];
  EXPECT_NEAR(first[0].get<double>(), point["outputs"][0]["worst"]["ulp_error"].get<double>(),
              5e-4);  // < 1.5 ULP
  EXPECT_EQ(first[1], 1);
  EXPECT_EQ(data["output_shapes"][first[2].get<size_t>()],
            json::array({"keyGrad", json::array({"key", "outputGrad", "value", "weight"})}));
  EXPECT_EQ(first[3].size(), 4u);
  const json& second = row[7][1];
  EXPECT_EQ(second[0], "nan");
  EXPECT_EQ(second[1], 0);
  EXPECT_EQ(data["output_shapes"][second[2].get<size_t>()],
            json::array({"valueGrad", json::array({"key", "value"})}));
  EXPECT_EQ(second[3], json::array({3, -1235000}));
  const json& failing = data["points"][19];
  EXPECT_EQ(failing[3], "failed");
  EXPECT_EQ(failing[4], json::array({rule_ids::kElementBound}));
}

TEST(HtmlPageData, HoldsTheCallingPatternsOnlyWhenTheRunHadThem) {
  json report = testing::SyntheticReport(20);
  EXPECT_FALSE(HtmlPageData(report).contains("calling_patterns"));
  const json counts = json::array({{{"rule", "contract.queued"}, {"points", 20}, {"passed", 19}, {"failed", 1},
                                    {"waived", 0}, {"not_provided", 0}}});
  report["calling_patterns"] = {
      {"patterns", counts},
      {"failures", json::array({{{"id", "p"}, {"rule", "contract.queued"}, {"steps", "launch 2"}, {"repro", "r"}}})}};
  const json data = HtmlPageData(report);
  ASSERT_TRUE(data.contains("calling_patterns"));
  EXPECT_EQ(data["calling_patterns"], counts);
  const std::string html = HtmlReport(report);
  EXPECT_EQ(Count(html, "id=\"patterns-section\""), 1u);
}

TEST(HtmlReport, StaticSummaryListsEveryFailureWithItsReproLine) {
  const json report = testing::SyntheticReport(200, 20);
  const std::string html = HtmlReport(report);
  EXPECT_NE(html.find("data-verdict=\"failed\""), std::string::npos);
  EXPECT_NE(html.find("✘ 10 failed"), std::string::npos);
  EXPECT_NE(html.find("✔ 190 passed"), std::string::npos);
  EXPECT_EQ(Count(html, "<li class=\"failure\""), 10u);
  for (const json& point : report["test_points"]) {
    const bool listed =
        html.find(HtmlEscape(point["repro"].get<std::string>())) != std::string::npos;
    EXPECT_EQ(listed, point["verdict"] == "failed") << point["id"];
  }
  EXPECT_NE(html.find("Ascend910B3 / A2"), std::string::npos);
  EXPECT_NE(html.find("0123456789ab"), std::string::npos);
  EXPECT_NE(html.find("2026-01-02T03:04:05Z"), std::string::npos);
  EXPECT_NE(html.find("12.50 s"), std::string::npos);
}

TEST(HtmlReport, PassingReportSaysSoAndListsNoFailure) {
  const std::string html = HtmlReport(testing::SyntheticReport(30, 0));
  EXPECT_NE(html.find("data-verdict=\"passed\""), std::string::npos);
  EXPECT_NE(html.find("<strong>PASSED</strong>"), std::string::npos);
  EXPECT_EQ(Count(html, "<li class=\"failure\""), 0u);
  EXPECT_NE(html.find("No test point failed"), std::string::npos);
}

TEST(HtmlReport, FailureListStopsAtItsLimitAndSaysHowManyMore) {
  const std::string list = FailureListHtml(testing::SyntheticReport(100, 10), 3);
  EXPECT_EQ(Count(list, "<li class=\"failure\""), 3u);
  EXPECT_NE(list.find("7 more failures are not listed here"), std::string::npos);
}

TEST(HtmlReport, TenThousandTestPointsStayUnderFiveMegabytes) {
  const std::string html = HtmlReport(testing::SyntheticReport(10000, 20));
  EXPECT_LT(html.size(), 5'000'000u);
  ::testing::Test::RecordProperty("html_bytes_10000_points", static_cast<int>(html.size()));
  std::cout << "report.html of 10,000 test points (500 failing): " << html.size() << " bytes\n";
  // A provider that fails everything: the static list stops at its limit, the page stays small.
  const std::string all_failing = HtmlReport(testing::SyntheticReport(10000, 1));
  EXPECT_LT(all_failing.size(), 5'000'000u);
  std::cout << "report.html of 10,000 failing test points: " << all_failing.size() << " bytes\n";
}

TEST(HtmlReport, PageLoadsNothingAndItsScriptNeverWritesMarkup) {
  const std::string script = kHtmlReportScript, style = kHtmlReportStyle, page = kHtmlReportPage;
  for (const char* markup_sink : {"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                                  "eval(", "new Function", "setHTML", "createContextualFragment"}) {
    EXPECT_EQ(script.find(markup_sink), std::string::npos) << markup_sink;
  }
  EXPECT_EQ(script.find("</script"), std::string::npos);
  EXPECT_EQ(style.find("</style"), std::string::npos);
  const std::string svg_namespace = "http://www.w3.org/2000/svg";
  for (const std::string& resource : {script, style, page}) {
    std::string without_namespace = resource;
    for (size_t at = without_namespace.find(svg_namespace); at != std::string::npos;
         at = without_namespace.find(svg_namespace)) {
      without_namespace.erase(at, svg_namespace.size());
    }
    for (const char* fetch : {"http:", "https:", "//cdn", "url(", "@import", "@font-face", "fetch(",
                              "XMLHttpRequest", "WebSocket", "src=", "<link"}) {
      EXPECT_EQ(without_namespace.find(fetch), std::string::npos) << fetch;
    }
  }
  const std::string html = HtmlReport(testing::SyntheticReport(5));
  EXPECT_NE(html.find("default-src 'none'"), std::string::npos);
  EXPECT_NE(html.find("script-src 'sha256-"), std::string::npos);
}

// Standard base64 (RFC 4648) decoded to lowercase hex; written here, apart from the page
// writer's encoder, so that the two cannot share a mistake. Empty on a character outside the
// alphabet.
std::string Base64ToHex(const std::string& text) {
  static constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string bytes;
  uint32_t bits = 0;
  int pending = 0;
  for (char c : text) {
    if (c == '=') break;
    const size_t value = kAlphabet.find(c);
    if (value == std::string_view::npos) return "";
    bits = (bits << 6) | static_cast<uint32_t>(value);
    pending += 6;
    if (pending >= 8) {
      pending -= 8;
      bytes.push_back(static_cast<char>((bits >> pending) & 0xFF));
    }
  }
  std::string hex;
  for (char byte : bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    hex += kDigits[(static_cast<uint8_t>(byte) >> 4) & 15];
    hex += kDigits[static_cast<uint8_t>(byte) & 15];
  }
  return hex;
}

TEST(HtmlReport, ContentSecurityPolicyHashIsThatOfThePagesOnlyScript) {
  // The decoder against a published value: SHA-256("abc") (FIPS 180-2), base64-encoded.
  ASSERT_EQ(Base64ToHex("ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const std::string html = HtmlReport(testing::SyntheticReport(5));
  // Every script element: the JSON data block (never run, so outside script-src) and one script.
  std::vector<std::string> scripts;
  for (size_t at = html.find("<script"); at != std::string::npos; at = html.find("<script", at)) {
    const size_t open_end = html.find('>', at);
    const size_t close = html.find("</script>", open_end);
    ASSERT_NE(close, std::string::npos);
    const std::string open = html.substr(at, open_end + 1 - at);
    if (open != R"(<script type="application/json" id="report-data">)") {
      EXPECT_EQ(open, "<script>");
      scripts.push_back(html.substr(open_end + 1, close - open_end - 1));
    }
    at = close;
  }
  ASSERT_EQ(scripts.size(), 1u);
  EXPECT_FALSE(scripts[0].empty());
  const std::string policy_key = "script-src '";
  const size_t policy = html.find(policy_key);
  ASSERT_NE(policy, std::string::npos);
  const size_t source_start = policy + policy_key.size();
  const std::string source =
      html.substr(source_start, html.find('\'', source_start) - source_start);
  ASSERT_EQ(source.substr(0, 7), "sha256-") << source;
  EXPECT_EQ(Base64ToHex(source.substr(7)), Sha256Hex(scripts[0])) << source;
}

TEST(FillTemplate, FillsEachMarkerOnceAndNeverScansWhatItInserts) {
  EXPECT_EQ(
      FillTemplate("a<!-- aclnn:x -->b<!-- aclnn:y -->c", {{"x", "<!-- aclnn:y -->"}, {"y", "Y"}}),
      "a<!-- aclnn:y -->bYc");
  EXPECT_THROW(FillTemplate("<!-- aclnn:x -->", {}), std::logic_error);
  EXPECT_THROW(FillTemplate("a", {{"x", ""}}), std::logic_error);
  EXPECT_THROW(FillTemplate("<!-- aclnn:x --><!-- aclnn:x -->", {{"x", ""}}), std::logic_error);
}

TEST(HtmlReport, WrittenBesideReportJsonAndOnDemandByTheCommandLine) {
  testing::TempDir dir;
  const json report = testing::SyntheticReport(25);
  WriteReports(report, (dir.path() / "run").string());
  EXPECT_EQ(ReadFile(dir.path() / "run/report.html"), HtmlReport(report));

  const std::string cli = ACLNN_CHECK_CLI;
  std::filesystem::remove(dir.path() / "run/report.html");
  const std::string json_path = (dir.path() / "run/report.json").string();
  ASSERT_EQ(std::system((cli + " report html '" + json_path + "' >/dev/null").c_str()), 0);
  EXPECT_EQ(ReadFile(dir.path() / "run/report.html"), HtmlReport(report));
  const std::string elsewhere = (dir.path() / "other/page.html").string();
  ASSERT_EQ(
      std::system(
          (cli + " report html '" + json_path + "' -o '" + elsewhere + "' >/dev/null").c_str()),
      0);
  EXPECT_EQ(ReadFile(elsewhere), HtmlReport(report));
  dir.Write("bad.json", "{\"not\": \"a report\"}");
  EXPECT_EQ(
      WEXITSTATUS(std::system(
          (cli + " report html '" + (dir.path() / "bad.json").string() + "' 2>/dev/null").c_str())),
      2);
}

}  // namespace
}  // namespace aclnn_check
