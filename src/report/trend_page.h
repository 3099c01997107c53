// trends.html (`aclnn-check report trends`): the benchmark history of `bench --history` and the
// conformance history of `run --run-history` drawn as trend plots over runs, one self-contained
// page with report.html's conventions (no network, only its own script by hash, resources
// embedded at build time; docs/html-report.md).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aclnn_check {

struct TrendPageInputs {
  std::string bench_history = "reports/bench/history.jsonl";
  std::string run_history = "reports/history.jsonl";
};

// The page for trend data (report/trend_data.h); `sources` lines go into the banner.
std::string TrendPage(const nlohmann::json& trend_data, const std::vector<std::string>& sources);

// Reads both histories and writes DIR/trends.html; returns its path. A missing history file is
// named on the page; both missing, or a malformed line, is an InputError naming the file.
std::string WriteTrendPage(const TrendPageInputs& inputs, const std::string& output_dir);

}  // namespace aclnn_check
