// Writes the reports of one run or merge into a folder: report.json, junit.xml, report.html.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace aclnn_check {

// Each file is written atomically; throws std::runtime_error naming the file on failure.
void WriteReports(const nlohmann::json& report, const std::string& folder);

}  // namespace aclnn_check
