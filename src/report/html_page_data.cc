#include "report/html_page_data.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "check/output_check.h"
#include "report/json_member.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

double AsDouble(const json& value) {
  if (value.is_number()) return value.get<double>();
  if (value == "inf") return INFINITY;
  if (value == "-inf") return -INFINITY;
  return NAN;
}

// Four significant digits place a point within a pixel on any plot the page draws and halve the
// size of the numbers; integers (bucket counts, exact ULP errors) stay as they are.
json PlotNumber(const json& value) {
  if (value.is_null()) return nullptr;
  const double number = AsDouble(value);
  if (std::isnan(number)) return "nan";
  if (std::isinf(number)) return number > 0 ? "inf" : "-inf";
  if (value.is_number_integer()) return value;
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", number);
  const double rounded = std::strtod(text, nullptr);
  if (rounded == std::trunc(rounded) && std::fabs(rounded) < 1e15) return static_cast<int64_t>(rounded);
  return rounded;
}

// Output and input names repeat in every test point of an operator: each pair is written once.
class OutputShapes {
 public:
  size_t IndexOf(const std::string& output, const std::vector<std::string>& inputs) {
    auto [it, added] = index_.emplace(std::make_pair(output, inputs), shapes_.size());
    if (added) shapes_.push_back(json::array({output, inputs}));
    return it->second;
  }
  const json& ToJson() const { return shapes_; }

 private:
  std::map<std::pair<std::string, std::vector<std::string>>, size_t> index_;
  json shapes_ = json::array();
};

json OutputRow(const json& output, OutputShapes& shapes) {
  const json& worst = ObjectMember(output, "worst");
  const json& inputs = ObjectMember(worst, "inputs");
  std::vector<std::string> names;
  json values = json::array();
  for (const auto& [name, value] : inputs.items()) {
    names.push_back(name);
    values.push_back(PlotNumber(value));
  }
  return json::array({PlotNumber(worst.value("ulp_error", json(nullptr))), worst.value("passed", true) ? 1 : 0,
                      shapes.IndexOf(output.value("name", ""), names), values});
}

json PointRow(const json& point, OutputShapes& shapes) {
  json failed_rules = json::array();
  for (const json& failure : ArrayMember(point, "failures")) failed_rules.push_back(failure.value("rule", ""));
  std::vector<int64_t> histogram(kUlpBuckets.size(), 0);
  json max_ulp = nullptr;
  json outputs = json::array();
  for (const json& output : ArrayMember(point, "outputs")) {
    const json& metrics = ObjectMember(output, "metrics");
    const json& buckets = ObjectMember(metrics, "ulp_histogram");
    for (size_t i = 0; i < kUlpBuckets.size(); ++i) histogram[i] += buckets.value(kUlpBuckets[i], int64_t{0});
    const json ulp = metrics.value("max_ulp", json(nullptr));
    // NaN counts as the worst error there is.
    const auto severity = [](const json& v) { const double d = AsDouble(v); return std::isnan(d) ? INFINITY : d; };
    if (!ulp.is_null() && (max_ulp.is_null() || severity(ulp) > severity(max_ulp))) max_ulp = ulp;
    outputs.push_back(OutputRow(output, shapes));
  }
  while (!histogram.empty() && histogram.back() == 0) histogram.pop_back();
  return json::array({point.value("id", ""), point.value("op", ""), point.value("dtype", ""),
                      point.value("verdict", ""), failed_rules, PlotNumber(max_ulp), histogram, outputs});
}

}  // namespace

json HtmlPageData(const json& report) {
  OutputShapes shapes;
  json points = json::array();
  for (const json& point : ArrayMember(report, "test_points")) points.push_back(PointRow(point, shapes));
  json data = {{"format", kHtmlPageDataFormat},
               {"totals", ObjectMember(report, "totals")},
               {"rule_coverage", ArrayMember(report, "rule_coverage")},
               {"output_shapes", shapes.ToJson()},
               {"points", std::move(points)}};
  if (report.contains("bench_history")) data["bench_history"] = report.at("bench_history");
  return data;
}

}  // namespace aclnn_check
