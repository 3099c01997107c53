#include "report/pattern_summary.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "report/json_member.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

constexpr std::string_view kPatternPrefix = "contract.";
constexpr std::string_view kReproMarker = ". Repro: ";

bool IsPattern(const std::string& rule) { return rule.rfind(kPatternPrefix, 0) == 0; }

struct PatternCounts {
  int64_t passed = 0, failed = 0, waived = 0, not_provided = 0;
};

json FailureEntry(const json& point, const std::string& rule, const std::string& message) {
  std::string steps = message;
  std::string repro = point.value("repro", "");
  if (const size_t at = message.rfind(kReproMarker); at != std::string::npos) {
    steps = message.substr(0, at);
    repro = message.substr(at + kReproMarker.size());
    // The message repeats the rule and the count of failed calls before the steps.
    const std::string lead = rule + " failed in ";
    if (steps.rfind(lead, 0) == 0) {
      if (const size_t colon = steps.find(": "); colon != std::string::npos) steps = steps.substr(colon + 2);
    }
  }
  return {{"id", point.value("id", "")}, {"rule", rule}, {"steps", steps}, {"repro", repro}};
}

}  // namespace

json CallingPatternSummary(const json& test_points) {
  std::map<std::string, PatternCounts> counts;
  json failures = json::array();
  for (const json& point : test_points) {
    for (const json& rule : ArrayMember(point, "rules")) {
      const std::string id = rule.value("id", "");
      if (!IsPattern(id)) continue;
      PatternCounts& c = counts[id];
      if (rule.value("held", true)) ++c.passed;
      else if (rule.value("waived", false)) ++c.waived;
      else ++c.failed;
    }
    for (const json& finding : ArrayMember(point, "advisory_findings")) {
      const std::string id = finding.value("rule", "");
      if (IsPattern(id)) ++counts[id].not_provided;
    }
    for (const json& failure : ArrayMember(point, "failures")) {
      const std::string id = failure.value("rule", "");
      if (IsPattern(id)) failures.push_back(FailureEntry(point, id, failure.value("message", "")));
    }
  }
  if (counts.empty()) return nullptr;
  json patterns = json::array();
  for (const auto& [rule, c] : counts) {
    patterns.push_back({{"rule", rule}, {"points", c.passed + c.failed + c.waived}, {"passed", c.passed},
                        {"failed", c.failed}, {"waived", c.waived}, {"not_provided", c.not_provided}});
  }
  return {{"patterns", patterns}, {"failures", failures}};
}

}  // namespace aclnn_check
