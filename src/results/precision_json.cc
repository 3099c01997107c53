#include "results/precision_json.h"

#include <cmath>
#include <cstdio>

#include "results/json_number.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

json ErrorMetricsJson(const ErrorMetrics& m) {
  return {{"mare", JsonNumber(m.mare)},       {"mere", JsonNumber(m.mere)},
          {"rmse", JsonNumber(m.rmse)},       {"error_count", m.error_count},
          {"normal_elements", m.normal_elements}, {"small_elements", m.small_elements}};
}

std::string Short(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (!value.is_number()) return value.dump();
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value.get<double>());
  return text;
}

}  // namespace

json OutputPrecisionJson(const OutputPrecision& p) {
  json out = {
      {"single_bm",
       {{"mare", JsonNumber(p.single.mare)},
        {"mere", JsonNumber(p.single.mere)},
        {"threshold", JsonNumber(p.single.threshold)},
        {"special_mismatches", p.single.special_mismatches},
        {"passed", p.single.passed}}},
      {"device", ErrorMetricsJson(p.device)},
      {"specials",
       {{"correct", p.specials.correct}, {"by_rule", p.specials.by_rule}, {"wrong", p.specials.wrong},
        {"inspect", p.specials.inspect}}},
  };
  if (p.comparison) {
    out["benchmark"] = ErrorMetricsJson(p.comparison->benchmark);
    json ratios = json::object();
    for (size_t k = 0; k < kRatioKinds.size(); ++k) {
      ratios[std::string(RatioName(kRatioKinds[k]))] = JsonNumber(p.comparison->ratios[k]);
    }
    out["ratios"] = ratios;
    json levels = json::object();
    for (DoubleBenchmarkLevel level : {DoubleBenchmarkLevel::kL0, DoubleBenchmarkLevel::kL1, DoubleBenchmarkLevel::kL2}) {
      levels[std::string(LevelName(level))] = DoubleBenchmarkFailures(*p.comparison, level).empty();
    }
    out["double_bm_passed"] = levels;
  } else {
    out["benchmark_missing"] = p.benchmark_missing;
  }
  return out;
}

void AddPrecisionJson(const TestPointResult& result, json* point) {
  if (!result.precision.is_null()) (*point)["precision"] = result.precision;
  if (!result.advisory.empty()) {
    json advisory = json::array();
    for (const Finding& f : result.advisory) advisory.push_back({{"rule", f.rule}, {"message", f.message}});
    (*point)["advisory_findings"] = advisory;
  }
  json& outputs = (*point)["outputs"];
  for (size_t i = 0; i < result.outputs.size() && i < outputs.size(); ++i) {
    if (result.outputs[i].precision) outputs[i]["precision"] = OutputPrecisionJson(*result.outputs[i].precision);
  }
}

std::string PrecisionLines(const json& point) {
  std::string text;
  for (const json& output : point.value("outputs", json::array())) {
    if (!output.contains("precision")) continue;
    const json& p = output.at("precision");
    const json& d = p.at("device");
    text += output.at("name").get<std::string>() + ": MARE " + Short(d.at("mare")) + ", MERE " + Short(d.at("mere")) +
            ", RMSE " + Short(d.at("rmse")) + ", ErrorCount " + d.at("error_count").dump() + " (" +
            d.at("normal_elements").dump() + " normal, " + d.at("small_elements").dump() + " small elements)";
    if (p.contains("ratios")) {
      const json& r = p.at("ratios");
      text += "; ratios to the benchmark MARE " + Short(r.at("mare")) + ", MERE " + Short(r.at("mere")) + ", RMSE " +
              Short(r.at("rmse")) + ", ErrorCount " + Short(r.at("error_count"));
    } else {
      text += "; no benchmark: " + p.at("benchmark_missing").get<std::string>();
    }
    const json& s = p.at("specials");
    const int64_t by_rule = s.value("by_rule", int64_t{0});
    text += "; inf/NaN " + s.at("correct").dump() + " correct" +
            (by_rule > 0 ? " (" + std::to_string(by_rule) + " by a documented rule)" : "") + ", " +
            s.at("wrong").dump() + " wrong, " +
            s.at("inspect").dump() + " to inspect; single_bm " +
            (p.at("single_bm").at("passed").get<bool>() ? "passed" : "failed") + " (MERE " +
            Short(p.at("single_bm").at("mere")) + ", MARE " + Short(p.at("single_bm").at("mare")) + ")\n";
  }
  if (!text.empty() && point.contains("precision")) {
    text = "precision standards (verdict " + point.at("precision").value("verdicts", std::string("element")) + "):\n" + text;
  }
  return text;
}

}  // namespace aclnn_check
