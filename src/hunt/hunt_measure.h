// What a hunt maximises (docs/hunt.md), read from a test point's result as report.json has it.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace aclnn_check {

enum class HuntMeasure {
  kUlp,    // the largest ULP error of any output element (outputs[].metrics.max_ulp)
  kRel,    // the largest relative error (max_rel)
  kMare,   // CANN's MARE against the float64 reference (outputs[].precision.device.mare)
  kRules,  // the number of rules and metrics that failed
};
std::optional<HuntMeasure> ParseHuntMeasure(const std::string& text);
std::string_view HuntMeasureName(HuntMeasure measure);

// A call's standing: a failed (or errored) point beats any passing one; then the measure.
struct HuntScore {
  bool failed = false;
  double value = 0;  // NaN read as 0: no evidence either way
  bool operator>(const HuntScore& other) const {
    return failed != other.failed ? failed : value > other.value;
  }
};
HuntScore ScoreOf(const nlohmann::json& result, HuntMeasure measure);

// Output elements the call judged (the hunt's candidates).
int64_t ElementsJudged(const nlohmann::json& result);

}  // namespace aclnn_check
