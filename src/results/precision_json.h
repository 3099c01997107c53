// CANN's precision standards in the reports (docs/contract/numerics.md): per output the single
// benchmark, the device's MARE/MERE/RMSE/ErrorCount against golden, the benchmark's and their
// ratios, the inf/NaN classes; per point the verdicts that decided, the benchmark's source and the
// re-check.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "results/result.h"

namespace aclnn_check {

// An output's "precision" member.
nlohmann::json OutputPrecisionJson(const OutputPrecision& precision);

// Adds the point's "precision" and "advisory_findings" and each output's "precision" to point
// (TestPointJson's result), when the run measured them.
void AddPrecisionJson(const TestPointResult& result, nlohmann::json* point);

// One line per output for people (JUnit, the HTML page): "out: MARE 0.0012, MERE 0.00031, RMSE
// 0.0004, ErrorCount 0; benchmark ...; ratios MARE 1.01 ..."; empty when nothing was measured.
std::string PrecisionLines(const nlohmann::json& point);

}  // namespace aclnn_check
