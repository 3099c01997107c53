// What trends.html draws, computed from the two history files (report/bench_history.h,
// report/run_history.h): runs ordered by date, and for each benchmark run whether `bench compare`
// against the previous run of the same benchmark on the same provider and SoC would flag it.
//   {"bench": [{"name", "runs": [{"date", "git_revision", "provider", "soc", "host",
//                                "device_time", "median", "low", "high", "repetitions",
//                                "host_get_workspace", "host_launch", "change", "p_value",
//                                "regression", "regressions", "compared_with"}]}],
//    "conformance": {"runs": [{"date", "git_revision", "provider", "soc", "product", "host",
//                              "test_points", "passed", "failed", "errors", "not_provided"}],
//                    "worst_ulp": [{"op", "dtype", "points": [{"run", "max_ulp", "nonfinite"}]}]}}
// Rates are bytes per second; "median", "low" and "high" are the median, smallest and largest of
// a run's repetitions; "compared_with" is the index of the run it was compared with (or null).
// "host_get_workspace" and "host_launch" are {"median", "low", "high"} in seconds per launch, or
// null for a line without them; "regression" is the device time's verdict and "regressions"
// names every figure `bench compare` flags ("device", "host GetWorkspaceSize", "host launch").
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "bench/benchmark_comparison.h"

namespace aclnn_check {

// bench_lines: parsed lines of a benchmark history; run_lines: of a conformance history. Lines
// with missing or mistyped fields throw InputError naming `bench_file`/`run_file`, the line and
// the field.
nlohmann::json TrendData(const std::vector<nlohmann::json>& bench_lines, const std::string& bench_file,
                         const std::vector<nlohmann::json>& run_lines, const std::string& run_file,
                         const CompareOptions& options = {});

}  // namespace aclnn_check
