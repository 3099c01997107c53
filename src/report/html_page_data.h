// The copy of a report that report.html embeds for its scripts: only what the page draws, in a
// compact form, so that a report of 10,000 test points stays well under 5 MB (docs/html-report.md).
//
//   {"format": 1,
//    "totals": the report's totals,
//    "rule_coverage": the report's rule coverage table, as it is,
//    "bench_history": the report's benchmark history [{name, date, bytes_per_second}], when
//    present, "calling_patterns": the report's calling_patterns.patterns (the counts per pattern;
//    its failures are in the static failure list), when present, "output_shapes": [[output name, [input name, ...]], ...]  each distinct pair, once,
//    "points": [[id, op, dtype, verdict, [failed rule ids], max ULP, histogram, [output, ...]],
//    ...], "timing": {"stages": [stage name, ...],  when any point has stage_seconds
//               "groups": [[op, dtype, points, seconds, [seconds per stage]], ...],
//               "slowest": [[id, seconds, [seconds per stage]], ...]  the 20 slowest points}}
//   points are in report order; max ULP is the largest of the outputs' (null without outputs);
//   histogram: the outputs' element counts per ULP-error bucket 0, 1, 2, 3-4, 5-8, 9-16, >16
//     summed, trailing zero buckets left out;
//   output: [worst element's ulp_error, 1 if it passed else 0, index into output_shapes,
//            [its input values in the order output_shapes names them]].
//
// Left out, because the page does not draw them or its static part already shows them: the run
// metadata (banner), case names and files, axes and layouts (all in the id), statuses, provider
// messages, failure messages, repro lines, worst elements' index, device and reference values
// (failure list), per-point rule outcomes (summed in rule_coverage), metrics other than max ULP and
// the histogram. Plotted numbers keep 4 significant digits; NaN and infinities stay the strings
// "nan", "inf", "-inf" as in report.json.
#pragma once

#include <nlohmann/json.hpp>

namespace aclnn_check {

constexpr int kHtmlPageDataFormat = 1;

// Tolerates reports without the optional fields (older reports, hand-written ones).
nlohmann::json HtmlPageData(const nlohmann::json& report);

}  // namespace aclnn_check
