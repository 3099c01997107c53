#include "hunt/hunt_measure.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace aclnn_check {
namespace {

// report.json writes NaN and the infinities as strings (results/json_number.h).
double NumberOf(const nlohmann::json& value) {
  if (value.is_number()) return value.get<double>();
  if (value == "inf") return std::numeric_limits<double>::infinity();
  return 0;
}

double OutputValue(const nlohmann::json& output, HuntMeasure measure) {
  switch (measure) {
    case HuntMeasure::kUlp:
      return NumberOf(output.at("metrics").at("max_ulp"));
    case HuntMeasure::kRel:
      return NumberOf(output.at("metrics").at("max_rel"));
    case HuntMeasure::kMare: {
      const nlohmann::json* mare = nullptr;
      if (output.contains("precision") && output["precision"].contains("device")) {
        mare = &output["precision"]["device"].at("mare");
      }
      return mare ? NumberOf(*mare) : 0;
    }
    case HuntMeasure::kRules:
      return 0;
  }
  return 0;
}

}  // namespace

std::optional<HuntMeasure> ParseHuntMeasure(const std::string& text) {
  for (HuntMeasure m :
       {HuntMeasure::kUlp, HuntMeasure::kRel, HuntMeasure::kMare, HuntMeasure::kRules}) {
    if (text == HuntMeasureName(m)) return m;
  }
  return std::nullopt;
}

std::string_view HuntMeasureName(HuntMeasure measure) {
  switch (measure) {
    case HuntMeasure::kUlp:
      return "ulp";
    case HuntMeasure::kRel:
      return "rel";
    case HuntMeasure::kMare:
      return "mare";
    case HuntMeasure::kRules:
      return "rules";
  }
  return "";
}

HuntScore ScoreOf(const nlohmann::json& result, HuntMeasure measure) {
  HuntScore score;
  const std::string verdict = result.value("verdict", "");
  score.failed = verdict == "failed" || verdict == "error";
  if (measure == HuntMeasure::kRules) {
    score.value = static_cast<double>(result.value("failures", nlohmann::json::array()).size());
    return score;
  }
  for (const nlohmann::json& output : result.value("outputs", nlohmann::json::array())) {
    const double value = OutputValue(output, measure);
    if (!std::isnan(value)) score.value = std::max(score.value, value);
  }
  return score;
}

int64_t ElementsJudged(const nlohmann::json& result) {
  int64_t elements = 0;
  for (const nlohmann::json& output : result.value("outputs", nlohmann::json::array())) {
    elements += output.at("metrics").value("elements", int64_t{0});
  }
  return elements;
}

}  // namespace aclnn_check
