// One test point's result as JSON: the element of report.json's "test_points" and the frame a
// worker process sends back (runner/isolation). Lives below both the runner and the reports.
#pragma once

#include <nlohmann/json.hpp>

#include "results/result.h"

namespace aclnn_check {

nlohmann::json TestPointJson(const TestPointResult& result);

}  // namespace aclnn_check
