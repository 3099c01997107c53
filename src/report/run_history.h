// Conformance history: `aclnn-check run` appends one JSON line per run (--run-history, default
// reports/history.jsonl, beside reports/latest/ and reports/bench/history.jsonl) so that
// `report trends` can draw pass counts and the worst ULP error per operator and dtype over runs.
//   {"date", "git_revision", "provider", "soc", "product", "host", "shard", "filter", "repeat",
//    "totals": {"test_points", "passed", "failed", "not_provided", "errors"},
//    "operators": [{"op", "dtype", "test_points", "passed", "failed", "errors", "not_provided",
//                   "max_ulp": number or null, "nonfinite_ulp": outputs whose max ULP was inf/NaN}]}
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aclnn_check {

// The line of a report.json document (a run or a merge of shards).
nlohmann::json RunHistoryEntry(const nlohmann::json& report);

// Appends `line` as one JSON line, creating the file and its folders; throws std::runtime_error
// naming the file when it cannot be written.
void AppendJsonLine(const std::filesystem::path& file, const nlohmann::json& line);

// Every non-blank line of a JSON lines file, parsed; throws InputError naming the file, the line
// number and what was wrong (`what` says which history it is, for the message).
std::vector<nlohmann::json> ReadJsonLines(const std::filesystem::path& file, const std::string& what);

}  // namespace aclnn_check
