// The drift section of report.html: written by `golden diff`, static HTML like the failure list.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace aclnn_check {

// The most outputs listed one by one; the rest stay in report.json.
constexpr size_t kListedDriftLimit = 500;

// "" when the report has no "drift" member; else a section with the two runs' provenance, the
// totals (identical / within N ULP / changed special / beyond) and every output that drifted.
std::string DriftSectionHtml(const nlohmann::json& report, size_t limit = kListedDriftLimit);

}  // namespace aclnn_check
