// The resource files of report.html, embedded by cmake/EmbedText.cmake.
#pragma once

namespace aclnn_check {

extern const char kHtmlReportPage[];    // src/report/html/report_page.html
extern const char kHtmlReportStyle[];   // src/report/html/report_page.css
extern const char kHtmlReportScript[];  // src/report/html/report_page.js

}  // namespace aclnn_check
