#include "report/report_files.h"

#include <filesystem>

#include "results/atomic_file.h"
#include "report/html_report.h"
#include "report/junit.h"

namespace aclnn_check {

void WriteReports(const nlohmann::json& report, const std::string& folder) {
  const std::filesystem::path dir(folder);
  WriteFileAtomically(dir / "report.json", report.dump(1) + "\n");
  WriteFileAtomically(dir / "junit.xml", JUnitXml(report));
  WriteFileAtomically(dir / "report.html", HtmlReport(report));
}

}  // namespace aclnn_check
