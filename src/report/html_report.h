// report.html (docs/contract/reports.md): one self-contained page, no network. The banner and the
// failure list are static HTML (readable with scripts off, printable); the matrix, rule coverage,
// plots, filters and test point table are drawn by the page's script from a trimmed copy of the
// report embedded once as JSON (html_page_data.h). The page, its style and its script are resource
// files under src/report/html/, embedded at build time.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace aclnn_check {

std::string HtmlReport(const nlohmann::json& report);

// Replaces every marker "<!-- aclnn:NAME -->" of `page` by parts.at(NAME). Content is not scanned
// again, so a part cannot inject a marker. Throws std::logic_error when a marker has no part or a
// part no marker: the template and this code disagree.
std::string FillTemplate(std::string_view page, const std::map<std::string, std::string>& parts);

// The Content-Security-Policy source that lets exactly this inline script run: "sha256-" and the
// base64 of its SHA-256.
std::string ScriptHashSource(std::string_view script);

}  // namespace aclnn_check
