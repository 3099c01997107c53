#include "report/report_outcome.h"

#include <string>

#include "report/json_member.h"

namespace aclnn_check {

ReportOutcome OutcomeOf(const nlohmann::json& report) {
  ReportOutcome outcome;
  outcome.require_all = ObjectMember(report, "run").value("require_all", false);
  for (const auto& point : ArrayMember(report, "test_points")) {
    const std::string verdict = point.value("verdict", "");
    ++outcome.test_points;
    if (verdict == "passed") ++outcome.passed;
    else if (verdict == "failed") ++outcome.failed;
    else if (verdict == "not-provided") ++outcome.not_provided;
    else ++outcome.errors;
  }
  return outcome;
}

bool CountsAsFailure(const nlohmann::json& point, bool require_all) {
  const std::string verdict = point.value("verdict", "");
  return verdict == "failed" || verdict == "error" || (require_all && verdict == "not-provided");
}

}  // namespace aclnn_check
