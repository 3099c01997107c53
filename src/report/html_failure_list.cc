// The failure list of report.html (see html_sections.h).
#include <sstream>

#include "report/html_escape.h"
#include "report/html_sections.h"
#include "report/json_member.h"
#include "report/report_outcome.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

const char* VerdictMark(const std::string& verdict) {
  if (verdict == "failed") return "✘ failed";
  if (verdict == "error") return "⚠ error";
  if (verdict == "not-provided") return "– not provided";
  return "✔ passed";
}

std::string InputsHtml(const json& inputs) {
  std::string html;
  for (const auto& [name, value] : inputs.items()) {
    if (!html.empty()) html += ", ";
    html += HtmlEscape(name) + " = " + HtmlEscapeValue(value);
  }
  return html;
}

// The worst element of each output whose worst element fails; of every output when none does (the
// point failed on a status, a rule or a metric), since then each is evidence.
void WorstElementTable(std::ostringstream& html, const json& outputs) {
  if (outputs.empty()) return;
  bool any_failing = false;
  for (const json& output : outputs) any_failing |= !ObjectMember(output, "worst").value("passed", true);
  html << "<table class=\"worst\">\n<caption>Worst element of each " << (any_failing ? "failing " : "")
       << "output</caption>\n<thead><tr><th>Output</th><th>Index</th><th>Inputs</th><th>Device</th>"
          "<th>Reference</th><th>ULP error</th><th>Rule</th><th>Element</th></tr></thead>\n<tbody>\n";
  for (const json& output : outputs) {
    const json& worst = ObjectMember(output, "worst");
    const bool passed = worst.value("passed", true);
    if (any_failing && passed) continue;
    html << "<tr" << (passed ? "" : " class=\"bad\"") << "><th>"
         << HtmlEscapeValue(output.value("name", json(""))) << " <span class=\"dtype\">"
         << HtmlEscapeValue(output.value("dtype", json(""))) << "</span></th><td class=\"num\">"
         << HtmlEscapeValue(worst.value("index", json(nullptr))) << "</td><td>"
         << InputsHtml(ObjectMember(worst, "inputs")) << "</td><td class=\"num\">"
         << HtmlEscapeValue(worst.value("device", json(nullptr))) << "</td><td class=\"num\">"
         << HtmlEscapeValue(worst.value("reference", json(nullptr))) << "</td><td class=\"num\">"
         << HtmlEscapeValue(worst.value("ulp_error", json(nullptr))) << "</td><td><code class=\"rule\">"
         << HtmlEscapeValue(worst.value("rule", json(""))) << "</code></td><td>"
         << (passed ? "✔ within bound" : "✘ fails") << "</td></tr>\n";
  }
  html << "</tbody>\n</table>\n";
}

void StatusLine(std::ostringstream& html, const json& point) {
  const json status = point.value("status", json(nullptr));
  const json expected = point.value("expected_status", json(nullptr));
  const std::string message = point.value("provider_message", "");
  if (status == expected && message.empty()) return;
  html << "<p class=\"status-line\">Status: expected <code>" << HtmlEscapeValue(expected) << "</code>";
  const std::string expected_rule = point.value("expected_rule", "");
  if (!expected_rule.empty()) html << " (rule <code class=\"rule\">" << HtmlEscape(expected_rule) << "</code>)";
  html << ", got <code>" << HtmlEscapeValue(status) << "</code>";
  if (!message.empty()) html << "; provider message: <q class=\"provider-message\">" << HtmlEscape(message) << "</q>";
  html << "</p>\n";
}

void FailureEntry(std::ostringstream& html, const json& point, size_t index) {
  const std::string verdict = point.value("verdict", "");
  html << "<li class=\"failure\" id=\"failure-" << index << "\" data-op=\"" << HtmlEscapeValue(point.value("op", json("")))
       << "\" data-dtype=\"" << HtmlEscapeValue(point.value("dtype", json(""))) << "\" data-status=\""
       << HtmlEscape(verdict) << "\">\n"
       << "<h3><span class=\"mark mark-" << HtmlEscape(verdict) << "\">" << VerdictMark(verdict)
       << "</span> <code class=\"point-id\">" << HtmlEscapeValue(point.value("id", json(""))) << "</code></h3>\n"
       << "<p class=\"where\">" << HtmlEscapeValue(point.value("op", json(""))) << " · "
       << HtmlEscapeValue(point.value("dtype", json(""))) << " · layout "
       << HtmlEscapeValue(point.value("layout", json(""))) << " · case <code>"
       << HtmlEscapeValue(point.value("case", json(""))) << "</code> in <code>"
       << HtmlEscapeValue(point.value("case_file", json(""))) << "</code></p>\n<ul class=\"findings\">\n";
  for (const json& failure : ArrayMember(point, "failures")) {
    html << "<li><code class=\"rule\">" << HtmlEscapeValue(failure.value("rule", json(""))) << "</code>: "
         << HtmlEscapeValue(failure.value("message", json(""))) << "</li>\n";
  }
  if (verdict == "not-provided") {
    html << "<li>the provider does not export " << HtmlEscapeValue(point.value("op", json(""))) << "</li>\n";
  }
  html << "</ul>\n";
  StatusLine(html, point);
  WorstElementTable(html, ArrayMember(point, "outputs"));
  html << "<p class=\"repro\"><span class=\"repro-label\">Repro:</span> <code class=\"repro-line\">"
       << HtmlEscapeValue(point.value("repro", json(""))) << "</code> "
       << "<button type=\"button\" class=\"copy\" hidden>Copy</button></p>\n</li>\n";
}

}  // namespace

std::string FailureListHtml(const json& report, size_t limit) {
  const ReportOutcome outcome = OutcomeOf(report);
  std::ostringstream html;
  html << "<h2 id=\"failures-heading\">Failures (" << outcome.failures() << ")</h2>\n";
  if (outcome.failures() == 0) {
    html << "<p class=\"no-failures\">✔ No test point failed.</p>\n";
    return html.str();
  }
  html << "<p class=\"filter-note\" id=\"failure-filter-note\" hidden></p>\n<ol class=\"failure-list\" id=\"failure-list\">\n";
  size_t listed = 0, index = 0;
  for (const json& point : ArrayMember(report, "test_points")) {
    if (CountsAsFailure(point, outcome.require_all) && listed < limit) {
      FailureEntry(html, point, index);
      ++listed;
    }
    ++index;
  }
  html << "</ol>\n";
  if (static_cast<int64_t>(listed) < outcome.failures()) {
    html << "<p class=\"more-failures\" id=\"more-failures\">" << outcome.failures() - static_cast<int64_t>(listed)
         << " more failures are not listed here (the first " << listed
         << " are): report.json and junit.xml have every one, with its repro line, and the test point "
            "table below lists them.</p>\n";
  }
  return html.str();
}

}  // namespace aclnn_check
