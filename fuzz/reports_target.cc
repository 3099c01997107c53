#include "fuzz/fuzz_targets.h"
#include "report/html_report.h"
#include "report/junit.h"
#include "report/report_json.h"
#include "json_input/input_error.h"

namespace aclnn_check::fuzz {

std::optional<std::string> FuzzReports(std::string_view data) {
  std::vector<std::pair<std::string, nlohmann::json>> reports;
  try {
    size_t start = 0;
    while (start <= data.size() && reports.size() < 2) {
      const size_t separator = data.find("\n---\n", start);
      const size_t end = separator == std::string_view::npos ? data.size() : separator;
      const std::string name = "fuzz" + std::to_string(reports.size()) + ".json";
      reports.emplace_back(name, ParseReport(std::string(data.substr(start, end - start)), name));
      if (separator == std::string_view::npos) break;
      start = separator + 5;
    }
    const nlohmann::json merged = MergeReportDocuments(reports);
    JUnitXml(merged);
    HtmlReport(merged);
  } catch (const InputError& error) {
    return error.what();
  }
  return std::nullopt;
}

}  // namespace aclnn_check::fuzz
