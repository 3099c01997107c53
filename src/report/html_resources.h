// The resource files of report.html, embedded by cmake/EmbedText.cmake.
#pragma once

namespace aclnn_check {

extern const char kHtmlReportPage[];    // src/report/html/report_page.html
extern const char kHtmlReportStyle[];   // src/report/html/report_page.css
extern const char kHtmlReportScript[];  // src/report/html/report_page.js
extern const char kTrendPage[];         // src/report/html/trends_page.html
extern const char kTrendStyle[];        // src/report/html/trends_page.css
extern const char kTrendScript[];       // src/report/html/trends_page.js

}  // namespace aclnn_check
