#include "report/html_page_data.h"

#include <algorithm>
#include <array>
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

// The stages of report.json's stage_seconds, in the order the page draws them.
constexpr std::array<const char*, 7> kStages = {"prepare",   "call",   "reference", "check",
                                                "precision", "repeat", "patterns"};
constexpr size_t kSlowestPoints = 20;

double Seconds(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
}

json StageRow(const json& stages) {
  json row = json::array();
  for (const char* stage : kStages) row.push_back(PlotNumber(Seconds(stages, stage)));
  return row;
}

// Per operator and dtype the seconds of its points, whole and by stage, and the slowest points;
// null when no point has stage_seconds (reports written before them).
json TimingData(const json& report) {
  struct Group {
    int64_t points = 0;
    double seconds = 0;
    std::array<double, kStages.size()> stages{};
  };
  std::map<std::pair<std::string, std::string>, Group> groups;
  std::vector<const json*> timed;
  for (const json& point : ArrayMember(report, "test_points")) {
    const json& stages = ObjectMember(point, "stage_seconds");
    if (stages.empty()) continue;
    Group& group = groups[{point.value("op", ""), point.value("dtype", "")}];
    ++group.points;
    group.seconds += Seconds(point, "seconds");
    for (size_t i = 0; i < kStages.size(); ++i) group.stages[i] += Seconds(stages, kStages[i]);
    timed.push_back(&point);
  }
  if (timed.empty()) return nullptr;
  json rows = json::array();
  for (const auto& [key, group] : groups) {
    json stages = json::array();
    for (double seconds : group.stages) stages.push_back(PlotNumber(seconds));
    rows.push_back({key.first, key.second, group.points, PlotNumber(group.seconds), stages});
  }
  const size_t slowest = std::min(kSlowestPoints, timed.size());
  std::partial_sort(
      timed.begin(), timed.begin() + static_cast<std::ptrdiff_t>(slowest), timed.end(),
      [](const json* a, const json* b) { return Seconds(*a, "seconds") > Seconds(*b, "seconds"); });
  json slow = json::array();
  for (size_t i = 0; i < slowest; ++i) {
    const json& point = *timed[i];
    slow.push_back({point.value("id", ""), PlotNumber(Seconds(point, "seconds")),
                    StageRow(ObjectMember(point, "stage_seconds"))});
  }
  json stage_names = json::array();
  for (const char* stage : kStages) stage_names.push_back(stage);
  return {{"stages", stage_names}, {"groups", rows}, {"slowest", slow}};
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
  if (const json& patterns = ObjectMember(report, "calling_patterns"); !patterns.empty())
    data["calling_patterns"] = ArrayMember(patterns, "patterns");
  if (json timing = TimingData(report); !timing.is_null()) data["timing"] = std::move(timing);
  return data;
}

}  // namespace aclnn_check
