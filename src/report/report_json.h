// report.json (docs/contract/reports.md): run metadata, every test point, totals and rule coverage.
// Totals and coverage are computed from the test points, so merging shard reports recomputes them
// the same way a single run does.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/profile.h"
#include "results/result.h"
#include "results/test_point_json.h"

namespace aclnn_check {

constexpr int kReportSchemaVersion = 1;

// metadata: the "run" object (provider, soc, product, host, times, command, ...).
// operators: names of the operators whose rules belong in the coverage table.
nlohmann::json BuildReport(nlohmann::json metadata, nlohmann::json test_points,
                           const std::vector<std::string>& operators);

nlohmann::json OverridesJson(const Profiles& profiles);

// Joins shard reports (docs/contract/reports.md `report merge`): test points by id (a duplicate id
// with another verdict is an error), run metadata from the first with every shard listed. Throws
// InputError.
nlohmann::json MergeReports(const std::vector<std::string>& paths);
// The same over reports already parsed: (name for messages, document) pairs.
nlohmann::json MergeReportDocuments(const std::vector<std::pair<std::string, nlohmann::json>>& reports);

// A report.json's text, checked against src/report/report.schema.json; throws InputError
// naming the path, the JSON pointer and what was expected.
nlohmann::json ParseReport(const std::string& text, const std::string& path);
nlohmann::json LoadReport(const std::string& path);

}  // namespace aclnn_check
