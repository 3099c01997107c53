#include "report/junit.h"

#include <map>
#include <sstream>
#include <vector>

#include "results/cann_verdict_json.h"
#include "results/precision_json.h"

namespace aclnn_check {

std::string XmlEscape(const std::string& text) {
  std::string escaped;
  for (unsigned char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      case '\'': escaped += "&apos;"; break;
      default:
        // XML 1.0 forbids most control characters even as references.
        if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
          escaped += "?";
        } else {
          escaped += static_cast<char>(c);
        }
    }
  }
  return escaped;
}

std::string JUnitXml(const nlohmann::json& report) {
  std::map<std::string, std::vector<const nlohmann::json*>> suites;
  for (const auto& point : report.at("test_points")) {
    suites[point.at("case_file").get<std::string>()].push_back(&point);
  }
  std::ostringstream xml;
  const auto& totals = report.at("totals");
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml << "<testsuites name=\"aclnn-check\" tests=\"" << totals.at("test_points")
      << "\" failures=\"" << totals.at("failed") << "\" errors=\"" << totals.at("errors") << "\">\n";
  for (const auto& [file, points] : suites) {
    int failures = 0, errors = 0, skipped = 0;
    double time = 0;
    for (const auto* p : points) {
      const std::string verdict = p->at("verdict");
      failures += verdict == "failed";
      errors += verdict == "error";
      skipped += verdict == "not-provided";
      time += p->value("seconds", 0.0);
    }
    const std::string name = points.front()->at("case").get<std::string>();
    xml << "  <testsuite name=\"" << XmlEscape(name) << "\" file=\"" << XmlEscape(file)
        << "\" tests=\"" << points.size() << "\" failures=\"" << failures << "\" errors=\""
        << errors << "\" skipped=\"" << skipped << "\" time=\"" << time << "\">\n";
    for (const auto* p : points) {
      const std::string verdict = p->at("verdict");
      xml << "    <testcase classname=\"" << XmlEscape(name) << "\" name=\""
          << XmlEscape(p->at("id").get<std::string>()) << "\" time=\"" << p->value("seconds", 0.0)
          << "\"";
      // Imported CANN cases: the source's own verdict beside aclnn-check's.
      // CANN's precision standards (docs/contract/numerics.md), measured for every output whichever
      // verdict decides.
      const std::string cann = CannVerdictLine(*p) + (CannVerdictLine(*p).empty() ? "" : "\n") + PrecisionLines(*p);
      const std::string cann_out = cann.empty() ? "" : "      <system-out>" + XmlEscape(cann) + "</system-out>\n";
      if (verdict == "passed") {
        xml << (cann.empty() ? "/>\n" : ">\n" + cann_out + "    </testcase>\n");
        continue;
      }
      xml << ">\n";
      if (verdict == "not-provided") {
        xml << "      <skipped message=\"the provider does not export " << XmlEscape(p->at("op"))
            << "\"/>\n";
      } else {
        std::string first, body;
        for (const auto& f : p->at("failures")) {
          const std::string line = f.at("rule").get<std::string>() + ": " + f.at("message").get<std::string>();
          if (first.empty()) first = line;
          body += line + "\n";
        }
        for (const auto& o : p->value("outputs", nlohmann::json::array())) {
          const auto& w = o.at("worst");
          body += "worst element of " + o.at("name").get<std::string>() + ": [" + w.at("index").dump() +
                  "] device " + w.at("device").dump() + " reference " + w.at("reference").dump() +
                  " (" + w.at("ulp_error").dump() + " ulp) inputs " + w.at("inputs").dump() + "\n";
        }
        body += "repro: " + p->at("repro").get<std::string>() + "\n";
        const char* tag = verdict == "error" ? "error" : "failure";
        xml << "      <" << tag << " message=\"" << XmlEscape(first) << "\" type=\""
            << XmlEscape(p->at("failures").empty() ? std::string("failure")
                                                   : p->at("failures")[0].at("rule").get<std::string>())
            << "\">" << XmlEscape(body) << "</" << tag << ">\n";
      }
      xml << cann_out << "    </testcase>\n";
    }
    xml << "  </testsuite>\n";
  }
  xml << "</testsuites>\n";
  return xml.str();
}

}  // namespace aclnn_check
