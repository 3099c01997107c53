// The CANN tolerance verdicts of imported cases in report.json: per test point beside its own
// verdict, and as two totals (cann_tolerance_passed, cann_tolerance_failed) when any point has one.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "results/result.h"

namespace aclnn_check {

// The point's "cann_tolerance" member, or nullopt when its case has no CANN criterion or no
// output was judged (a rejected call).
std::optional<nlohmann::json> CannVerdictJson(const TestPointResult& result);

// One line for people: "CANN tolerance (ttk_close, x.csv line 3): passed; out: 0 of 8 not close
// (rtol 0.0001, atol 1e-08, ptol 0.0001)"; empty when the point has no CANN verdict.
std::string CannVerdictLine(const nlohmann::json& point);

// Adds the CANN totals to totals when some test point carries a verdict.
void AddCannTotals(const nlohmann::json& test_points, nlohmann::json* totals);

}  // namespace aclnn_check
