// The precision-standards section of report.html (see html_sections.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <tuple>
#include <vector>

#include "report/html_escape.h"
#include "report/html_sections.h"
#include "results/precision_json.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

double AsDouble(const json& value) {
  if (value.is_number()) return value.get<double>();
  return value == "nan" ? NAN : value == "-inf" ? -INFINITY : INFINITY;
}

std::string Short(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

struct Row {
  int64_t outputs = 0, with_benchmark = 0, specials_wrong = 0, specials_inspect = 0, single_passed = 0;
  std::map<std::string, int64_t> level_passed;
  std::map<std::string, std::vector<double>> ratios;
  double device_mare = 0;
};

}  // namespace

std::string PrecisionStandardsHtml(const json& report, size_t limit) {
  std::map<std::tuple<std::string, std::string, std::string>, Row> rows;
  std::vector<const json*> failed;
  for (const json& point : report.at("test_points")) {
    bool measured = false;
    for (const json& output : point.value("outputs", json::array())) {
      if (!output.contains("precision")) continue;
      measured = true;
      const json& p = output.at("precision");
      Row& row = rows[{point.at("op").get<std::string>(), output.at("dtype").get<std::string>(),
                       output.at("name").get<std::string>()}];
      ++row.outputs;
      row.single_passed += p.at("single_bm").at("passed").get<bool>();
      row.specials_wrong += p.at("specials").at("wrong").get<int64_t>();
      row.specials_inspect += p.at("specials").at("inspect").get<int64_t>();
      row.device_mare = std::max(row.device_mare, AsDouble(p.at("device").at("mare")));
      if (!p.contains("ratios")) continue;
      ++row.with_benchmark;
      for (const auto& [name, value] : p.at("ratios").items()) row.ratios[name].push_back(AsDouble(value));
      for (const auto& [level, passed] : p.at("double_bm_passed").items()) row.level_passed[level] += passed.get<bool>();
    }
    if (!measured) continue;
    for (const json& failure : point.at("failures")) {
      if (failure.at("rule").get<std::string>().rfind("precision.", 0) == 0) {
        failed.push_back(&point);
        break;
      }
    }
  }
  if (rows.empty()) return "";
  std::ostringstream html;
  html << "<section id=\"precision-standards\">\n<h2>Precision standards (CANN, docs/contract/numerics.md)</h2>\n"
       << "<p>Every computed output against the float64 reference (golden) and, where a benchmark "
          "implementation was given, against its outputs: median and largest ratio device/benchmark "
          "of MARE, MERE, RMSE and the small-value ErrorCount (L2 limits 2, 1.2, 1.2, 2).</p>\n"
       << "<table>\n<tr><th>operator</th><th>dtype</th><th>output</th><th>outputs</th><th>single_bm passed</th>"
          "<th>device MARE (max)</th><th>with benchmark</th><th>MARE ratio</th><th>MERE ratio</th>"
          "<th>RMSE ratio</th><th>ErrorCount ratio</th><th>L0 / L1 / L2 passed</th><th>inf/NaN wrong / inspect</th></tr>\n";
  for (auto& [key, row] : rows) {
    html << "<tr><td>" << HtmlEscape(std::get<0>(key)) << "</td><td>" << HtmlEscape(std::get<1>(key)) << "</td><td>"
         << HtmlEscape(std::get<2>(key)) << "</td><td>" << row.outputs << "</td><td>" << row.single_passed << "</td><td>"
         << Short(row.device_mare) << "</td><td>" << row.with_benchmark << "</td>";
    for (const char* name : {"mare", "mere", "rmse", "error_count"}) {
      std::vector<double>& values = row.ratios[name];
      if (values.empty()) {
        html << "<td>-</td>";
        continue;
      }
      std::sort(values.begin(), values.end());
      html << "<td>" << Short(values[values.size() / 2]) << " (max " << Short(values.back()) << ")</td>";
    }
    html << "<td>" << row.level_passed["L0"] << " / " << row.level_passed["L1"] << " / " << row.level_passed["L2"]
         << "</td><td>" << row.specials_wrong << " / " << row.specials_inspect << "</td></tr>\n";
  }
  html << "</table>\n";
  if (!failed.empty()) {
    html << "<h3>Points failing a precision standard</h3>\n<table>\n<tr><th>test point</th><th>finding</th></tr>\n";
    for (size_t i = 0; i < failed.size() && i < limit; ++i) {
      for (const json& failure : failed[i]->at("failures")) {
        if (failure.at("rule").get<std::string>().rfind("precision.", 0) != 0) continue;
        html << "<tr><td><code>" << HtmlEscape(failed[i]->at("id").get<std::string>()) << "</code></td><td>"
             << HtmlEscape(failure.at("rule").get<std::string>() + ": " + failure.at("message").get<std::string>())
             << "</td></tr>\n";
      }
    }
    html << "</table>\n";
  }
  html << "</section>\n";
  return html.str();
}

}  // namespace aclnn_check
