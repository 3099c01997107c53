#include "report/html_drift.h"

#include <sstream>

#include "report/html_escape.h"
#include "report/json_member.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

void CountCells(std::ostringstream& html, const json& counts) {
  for (const char* key : {"elements", "identical", "within_ulp", "changed_special", "beyond", "max_ulp"}) {
    html << "<td class=\"num\">" << HtmlEscapeValue(counts.value(key, json(nullptr))) << "</td>";
  }
}

void RunLine(std::ostringstream& html, const char* label, const json& run) {
  const json& provenance = ObjectMember(run, "provenance");
  html << "<li>" << label << ": <code>" << HtmlEscapeValue(run.value("file", json(""))) << "</code>";
  for (const char* key : {"soc", "harness_version", "created", "provider"}) {
    if (provenance.contains(key)) html << ", " << key << " " << HtmlEscapeValue(provenance.at(key));
  }
  html << "</li>\n";
}

}  // namespace

std::string DriftSectionHtml(const json& report, size_t limit) {
  if (!report.is_object() || !report.contains("drift") || !report.at("drift").is_object()) return "";
  const json& drift = report.at("drift");
  const bool exceeds = drift.value("exceeds", false);
  std::ostringstream html;
  html << "<section id=\"drift-section\" aria-labelledby=\"drift-heading\">\n"
       << "<h2 id=\"drift-heading\">Drift between recorded runs " << (exceeds ? "✘ beyond" : "✔ within")
       << " " << HtmlEscapeValue(drift.value("max_ulp", json(0))) << " ULP</h2>\n<ul>\n";
  RunLine(html, "before", ObjectMember(drift, "before"));
  RunLine(html, "after", ObjectMember(drift, "after"));
  html << "</ul>\n<table class=\"drift\">\n<thead><tr><th>Test point</th><th>Output</th><th>Elements</th>"
          "<th>Identical</th><th>Within N ULP</th><th>Changed special</th><th>Beyond</th><th>Max ULP</th>"
          "<th>First changed (before → after)</th></tr></thead>\n<tbody>\n<tr><th colspan=\"2\">all</th>";
  CountCells(html, ObjectMember(drift, "totals"));
  html << "<td></td></tr>\n";
  size_t listed = 0, drifted = 0;
  const json outputs = drift.value("outputs", json::array());
  for (const json& output : outputs) {
    const json& counts = ObjectMember(output, "counts");
    if (counts.value("identical", 0) == counts.value("elements", 0)) continue;
    ++drifted;
    if (listed++ >= limit) continue;
    const bool bad = output.contains("first_beyond");
    html << "<tr" << (bad ? " class=\"bad\"" : "") << "><td><code class=\"point-id\">"
         << HtmlEscapeValue(output.value("id", json(""))) << "</code></td><td>"
         << HtmlEscapeValue(output.value("output", json(""))) << " <span class=\"dtype\">"
         << HtmlEscapeValue(output.value("dtype", json(""))) << "</span></td>";
    CountCells(html, counts);
    html << "<td>";
    if (bad) {
      const json& first = ObjectMember(output, "first_beyond");
      html << "[" << HtmlEscapeValue(first.value("index", json(nullptr))) << "] "
           << HtmlEscapeValue(first.value("before", json(nullptr))) << " → "
           << HtmlEscapeValue(first.value("after", json(nullptr)));
    }
    html << "</td></tr>\n";
  }
  html << "</tbody>\n</table>\n";
  if (drifted > limit) html << "<p class=\"hint\">" << drifted - limit << " more drifted outputs are in report.json.</p>\n";
  for (const char* key : {"only_before", "only_after", "shape_changed"}) {
    const json list = drift.value(key, json::array());
    if (!list.is_array() || list.empty()) continue;
    html << "<p class=\"bad\">" << key << ": " << list.size() << " (";
    for (size_t i = 0; i < list.size() && i < 20; ++i) html << (i ? ", " : "") << HtmlEscapeValue(list[i]);
    html << (list.size() > 20 ? ", …" : "") << ")</p>\n";
  }
  html << "</section>\n";
  return html.str();
}

}  // namespace aclnn_check
