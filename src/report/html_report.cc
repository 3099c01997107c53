#include "report/html_report.h"

#include <set>
#include <stdexcept>

#include "core/sha256.h"
#include "report/html_drift.h"
#include "report/html_escape.h"
#include "report/html_page_data.h"
#include "report/html_resources.h"
#include "report/html_sections.h"

namespace aclnn_check {

std::string ScriptHashSource(std::string_view script) {
  static constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::string hex = Sha256Hex(script);
  std::string digest;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) digest.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  std::string encoded = "sha256-";
  for (size_t i = 0; i < digest.size(); i += 3) {
    const size_t left = digest.size() - i;
    uint32_t group = static_cast<uint8_t>(digest[i]) << 16;
    if (left > 1) group |= static_cast<uint8_t>(digest[i + 1]) << 8;
    if (left > 2) group |= static_cast<uint8_t>(digest[i + 2]);
    encoded += kBase64[(group >> 18) & 63];
    encoded += kBase64[(group >> 12) & 63];
    encoded += left > 1 ? kBase64[(group >> 6) & 63] : '=';
    encoded += left > 2 ? kBase64[group & 63] : '=';
  }
  return encoded;
}

std::string FillTemplate(std::string_view page, const std::map<std::string, std::string>& parts) {
  constexpr std::string_view kOpen = "<!-- aclnn:";
  constexpr std::string_view kClose = " -->";
  std::string filled;
  filled.reserve(page.size());
  std::set<std::string> used;
  size_t at = 0;
  for (size_t marker = page.find(kOpen); marker != std::string_view::npos; marker = page.find(kOpen, at)) {
    const size_t name_start = marker + kOpen.size();
    const size_t close = page.find(kClose, name_start);
    if (close == std::string_view::npos) throw std::logic_error("report.html template: unterminated marker");
    const std::string name(page.substr(name_start, close - name_start));
    const auto part = parts.find(name);
    if (part == parts.end()) throw std::logic_error("report.html template: no content for marker " + name);
    if (!used.insert(name).second) throw std::logic_error("report.html template: marker " + name + " twice");
    filled.append(page.substr(at, marker - at));
    filled.append(part->second);
    at = close + kClose.size();
  }
  filled.append(page.substr(at));
  for (const auto& [name, content] : parts) {
    if (!used.count(name)) throw std::logic_error("report.html template: no marker " + name);
  }
  return filled;
}

std::string HtmlReport(const nlohmann::json& report) {
  return FillTemplate(kHtmlReportPage, {{"title", PageTitle(report)},
                                        {"script_hash", ScriptHashSource(kHtmlReportScript)},
                                        {"style", kHtmlReportStyle},
                                        {"banner", VerdictBannerHtml(report) + CannToleranceHtml(report) + PrecisionStandardsHtml(report)},
                                        {"failures", FailureListHtml(report)},
                                        {"drift", DriftSectionHtml(report)},
                                        {"data", JsonForScriptElement(HtmlPageData(report))},
                                        {"script", kHtmlReportScript}});
}

}  // namespace aclnn_check
