// The CANN tolerance section of report.html (see html_sections.h).
#include <sstream>

#include "results/cann_verdict_json.h"
#include "report/html_escape.h"
#include "report/html_sections.h"

namespace aclnn_check {

std::string CannToleranceHtml(const nlohmann::json& report, size_t limit) {
  size_t judged = 0, cann_passed = 0, both_passed = 0;
  std::vector<const nlohmann::json*> listed;
  for (const auto& point : report.at("test_points")) {
    if (!point.contains("cann_tolerance")) continue;
    ++judged;
    const bool cann = point.at("cann_tolerance").at("passed").get<bool>();
    const bool own = point.at("verdict") == "passed";
    cann_passed += cann;
    both_passed += cann && own;
    if (!cann || !own) listed.push_back(&point);
  }
  if (judged == 0) return "";
  std::ostringstream html;
  html << "<section id=\"cann-tolerance\">\n<h2>CANN tolerance</h2>\n<p>" << judged
       << " imported test points: <strong>" << cann_passed << "</strong> pass CANN's own tolerance, "
       << both_passed << " pass both CANN's tolerance and aclnn-check's ULP/bound check.</p>\n";
  if (!listed.empty()) {
    html << "<table>\n<tr><th>test point</th><th>aclnn-check</th><th>CANN tolerance</th></tr>\n";
    for (size_t i = 0; i < listed.size() && i < limit; ++i) {
      const auto& point = *listed[i];
      html << "<tr><td><code>" << HtmlEscape(point.at("id").get<std::string>()) << "</code></td><td>"
           << HtmlEscape(point.at("verdict").get<std::string>()) << "</td><td>"
           << HtmlEscape(CannVerdictLine(point)) << "</td></tr>\n";
    }
    html << "</table>\n";
  }
  html << "</section>\n";
  return html.str();
}

}  // namespace aclnn_check
