// The calling patterns of a run (docs/calling-patterns.md) summed from its points' rule results:
// report.json's "calling_patterns" (docs/contract/reports.md) and the page's section of it.
#pragma once

#include <nlohmann/json.hpp>

namespace aclnn_check {

// {"patterns": [{"rule", "points", "passed", "failed", "waived", "not_provided"}, ...] by rule id,
//  "failures": [{"id", "rule", "steps", "repro"}, ...] in point order}, or null when no point ran
// or skipped a pattern (a rule or an advisory finding "contract.*").
// points: the points whose rules hold the pattern (passed + failed + waived); not_provided: points
// whose provider lacks the pattern's functions (an advisory finding, no rule). A failure's steps
// and repro are its message's parts around ". Repro: " (src/runner/calling_patterns.cc writes
// "<rule> failed in N call(s): <steps>. Repro: <command>"); a message without it keeps it whole
// as the steps and the point's own repro line.
nlohmann::json CallingPatternSummary(const nlohmann::json& test_points);

}  // namespace aclnn_check
