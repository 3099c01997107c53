// The parts of report.html written as static HTML, so the page reads as a plain summary with
// scripts off and in print: the verdict banner and the list of failures with their repro lines.
// Every string from the report is HTML-escaped.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace aclnn_check {

// The most failures listed in full; a broken provider can fail every point, and 1,000 entries
// already take about 1.5 MB. The rest stay in report.json, junit.xml and the page's test point table.
constexpr size_t kListedFailureLimit = 1000;

// "<h1>" title, passed/failed with symbols and counts, provider, SoC/product, git revision, date,
// duration, command, and the profile overrides in force.
std::string VerdictBannerHtml(const nlohmann::json& report);

// Every failure (up to `limit`) with the rules that failed and their messages, status and provider
// message, each output's worst element (index, inputs, device, reference, ULP error, rule) and the
// repro command with a copy button. Entries carry data-op, data-dtype and data-status for the page's
// filters, which read the id from the entry's code.point-id.
std::string FailureListHtml(const nlohmann::json& report, size_t limit = kListedFailureLimit);

// Imported CANN cases: how many test points pass the source's own tolerance beside aclnn-check's
// verdict, and the points where the two differ or CANN's fails (up to `limit`); empty when no point
// carries a CANN verdict.
std::string CannToleranceHtml(const nlohmann::json& report, size_t limit = kListedFailureLimit);

// CANN's precision standards (docs/contract/numerics.md): per operator, dtype and output the single
// benchmark, the device's largest MARE, the ratios to the benchmark (median and largest) and how
// many outputs pass the double benchmark at L0, L1 and L2; then the points a precision verdict
// failed (up to `limit`). Empty when no output was measured.
std::string PrecisionStandardsHtml(const nlohmann::json& report, size_t limit = kListedFailureLimit);

// The page title: verdict, counts and SoC.
std::string PageTitle(const nlohmann::json& report);

}  // namespace aclnn_check
