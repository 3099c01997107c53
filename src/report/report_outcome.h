// What a report says overall, counted from its test points the way `run` sets its exit code: a
// failed or erroneous point fails the run, and so does an operator the provider lacks when the run
// was given --require-all.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

namespace aclnn_check {

struct ReportOutcome {
  int64_t test_points = 0;
  int64_t passed = 0;
  int64_t failed = 0;
  int64_t errors = 0;
  int64_t not_provided = 0;
  bool require_all = false;

  int64_t failures() const { return failed + errors + (require_all ? not_provided : 0); }
  bool passed_overall() const { return failures() == 0; }
};

ReportOutcome OutcomeOf(const nlohmann::json& report);

// Whether this test point belongs in the list of failures.
bool CountsAsFailure(const nlohmann::json& point, bool require_all);

}  // namespace aclnn_check
