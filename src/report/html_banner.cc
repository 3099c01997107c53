// The verdict banner of report.html (see html_sections.h).
#include <cstdio>
#include <sstream>

#include "report/html_escape.h"
#include "report/html_sections.h"
#include "report/json_member.h"
#include "report/report_outcome.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

std::string Duration(double seconds) {
  char text[64];
  if (seconds < 60) {
    std::snprintf(text, sizeof text, "%.2f s", seconds);
  } else {
    const long whole = static_cast<long>(seconds);
    std::snprintf(text, sizeof text, "%ldh %02ldm %02lds", whole / 3600, whole / 60 % 60, whole % 60);
  }
  return text;
}

// One fact of the run as a <dt>/<dd> pair; `value_html` is already escaped.
void Fact(std::ostringstream& html, const char* term, const std::string& value_html) {
  html << "<div><dt>" << term << "</dt><dd>" << value_html << "</dd></div>\n";
}

// The provider as given (cpu, ref or paths) and each library loaded with its hash; a spec that is
// just the one library's path is not written twice.
std::string ProviderHtml(const json& provider) {
  const std::string spec = provider.value("spec", "");
  const json& libraries = ArrayMember(provider, "libraries");
  const bool spec_is_the_library = libraries.size() == 1 && libraries[0].value("path", "") == spec;
  std::string html = spec_is_the_library ? "" : "<code>" + HtmlEscape(spec) + "</code>";
  for (const json& library : libraries) {
    const std::string sha = library.value("sha256", "");
    if (!html.empty()) html += "<br>";
    html += "<span class=\"library\"><code>" + HtmlEscapeValue(library.value("path", json(""))) +
            "</code> sha256 <code title=\"" + HtmlEscape(sha) + "\">" + HtmlEscape(sha.substr(0, 12)) +
            "</code></span>";
  }
  return html;
}

std::string OverridesHtml(const json& overrides) {
  if (overrides.empty()) return "";
  std::ostringstream html;
  html << "<section class=\"overrides\" aria-labelledby=\"overrides-heading\">\n"
       << "<h2 id=\"overrides-heading\">Profile overrides in force (" << overrides.size() << ")</h2>\n<ul>\n";
  for (const json& o : overrides) {
    html << "<li><code class=\"rule\">" << HtmlEscapeValue(o.value("rule", json(""))) << "</code> ";
    if (o.contains("expect")) html << "expects <code>" << HtmlEscapeValue(o.at("expect")) << "</code>";
    if (o.contains("status")) html << "accepts status <code>" << HtmlEscapeValue(o.at("status")) << "</code>";
    if (o.value("waive", false)) html << "waived";
    html << ": " << HtmlEscapeValue(o.value("reason", json(""))) << " <span class=\"source\">(source: "
         << HtmlEscapeValue(o.value("source", json(""))) << "; profile "
         << HtmlEscapeValue(o.value("profile", json(""))) << ")</span></li>\n";
  }
  html << "</ul>\n</section>\n";
  return html.str();
}

}  // namespace

std::string PageTitle(const json& report) {
  const ReportOutcome outcome = OutcomeOf(report);
  const json& run = ObjectMember(report, "run");
  std::string title = outcome.passed_overall() ? "✔ passed" : "✘ failed";
  title += " — " + std::to_string(outcome.passed) + " of " + std::to_string(outcome.test_points) +
           " test points passed";
  const std::string soc = run.value("soc", "");
  if (!soc.empty()) title += " on " + soc;
  return HtmlEscape("aclnn-check: " + title);
}

std::string VerdictBannerHtml(const json& report) {
  const ReportOutcome outcome = OutcomeOf(report);
  const json& run = ObjectMember(report, "run");
  const bool passed = outcome.passed_overall();
  std::ostringstream html;
  html << "<h1>aclnn-check report</h1>\n"
       << "<p class=\"verdict verdict-" << (passed ? "passed" : "failed") << "\" id=\"verdict\" data-verdict=\""
       << (passed ? "passed" : "failed") << "\"><span class=\"verdict-mark\" aria-hidden=\"true\">"
       << (passed ? "✔" : "✘") << "</span> <strong>" << (passed ? "PASSED" : "FAILED") << "</strong> <span>";
  if (passed) {
    html << outcome.passed << " of " << outcome.test_points << " test points passed";
    if (outcome.not_provided) html << ", " << outcome.not_provided << " skipped";
  } else {
    html << outcome.failures() << " of " << outcome.test_points << " test points failed";
  }
  html << "</span></p>\n<ul class=\"counts\" id=\"counts\">\n"
       << "<li class=\"count-passed\">✔ " << outcome.passed << " passed</li>\n"
       << "<li class=\"count-failed\">✘ " << outcome.failed << " failed</li>\n"
       << "<li class=\"count-error\">⚠ " << outcome.errors << " errors</li>\n"
       << "<li class=\"count-skipped\">– " << outcome.not_provided << " skipped (not provided"
       << (outcome.require_all ? ", counted as failures: --require-all" : "") << ")</li>\n"
       << "<li class=\"count-total\">" << outcome.test_points << " test points</li>\n</ul>\n";
  html << "<dl class=\"run-facts\">\n";
  Fact(html, "Provider", ProviderHtml(ObjectMember(run, "provider")));
  Fact(html, "SoC / product",
       HtmlEscapeValue(run.value("soc", json(""))) + " / " + HtmlEscapeValue(run.value("product", json(""))));
  Fact(html, "Git revision", "<code>" + HtmlEscapeValue(run.value("git_revision", json(""))) + "</code>");
  const std::string started = run.value("started", "");
  Fact(html, "Date", "<time datetime=\"" + HtmlEscape(started) + "\">" + HtmlEscape(started) + "</time>");
  Fact(html, "Duration", Duration(run.value("duration_seconds", 0.0)));
  const std::string shard = run.value("shard", "1/1");
  if (shard == "merged") {
    Fact(html, "Shards", "merged from " + std::to_string(ArrayMember(run, "shards").size()) + " reports");
  } else if (shard != "1/1") {
    Fact(html, "Shard", HtmlEscape(shard));
  }
  if (run.contains("filter")) Fact(html, "Filter", "<code>" + HtmlEscapeValue(run.at("filter")) + "</code>");
  Fact(html, "Host", HtmlEscapeValue(run.value("host", json(""))));
  const json& tool = ObjectMember(report, "tool");
  Fact(html, "Tool", HtmlEscapeValue(tool.value("name", json("aclnn-check"))) + " " +
                         HtmlEscapeValue(tool.value("version", json(""))));
  const std::string command = run.value("command", "");
  if (!command.empty()) Fact(html, "Command", "<code class=\"command\">" + HtmlEscape(command) + "</code>");
  html << "</dl>\n" << OverridesHtml(ArrayMember(run, "overrides"));
  return html.str();
}

}  // namespace aclnn_check
