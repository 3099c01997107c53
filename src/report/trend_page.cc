#include "report/trend_page.h"

#include <filesystem>

#include "results/atomic_file.h"
#include "report/html_escape.h"
#include "report/html_report.h"
#include "report/html_resources.h"
#include "report/run_history.h"
#include "report/trend_data.h"
#include "json_input/input_error.h"

namespace aclnn_check {

std::string TrendPage(const nlohmann::json& trend_data, const std::vector<std::string>& sources) {
  std::string banner = "<h1>aclnn-check trends</h1>\n<ul class=\"sources\">\n";
  for (const std::string& source : sources) banner += "<li>" + HtmlEscape(source) + "</li>\n";
  banner += "</ul>\n";
  return FillTemplate(kTrendPage, {{"title", "aclnn-check trends"},
                                   {"script_hash", ScriptHashSource(kTrendScript)},
                                   {"style", std::string(kHtmlReportStyle) + kTrendStyle},
                                   {"banner", banner},
                                   {"data", JsonForScriptElement(trend_data)},
                                   {"script", kTrendScript}});
}

std::string WriteTrendPage(const TrendPageInputs& inputs, const std::string& output_dir) {
  std::vector<std::string> sources;
  const auto read = [&](const std::string& file, const std::string& what) {
    std::vector<nlohmann::json> lines;
    if (!file.empty() && std::filesystem::exists(file)) {
      lines = ReadJsonLines(file, what);
      sources.push_back(what + ": " + file + " (" + std::to_string(lines.size()) + " lines)");
    } else {
      sources.push_back(what + ": " + (file.empty() ? "none given" : file + " does not exist"));
    }
    return lines;
  };
  const std::vector<nlohmann::json> bench = read(inputs.bench_history, "benchmark history");
  const std::vector<nlohmann::json> runs = read(inputs.run_history, "conformance history");
  if (bench.empty() && runs.empty()) {
    throw InputError(inputs.bench_history + ", " + inputs.run_history, "/",
                     "no history to draw (`bench --history` and `run --run-history` write them)");
  }
  const std::filesystem::path page = std::filesystem::path(output_dir) / "trends.html";
  WriteFileAtomically(page, TrendPage(TrendData(bench, inputs.bench_history, runs, inputs.run_history), sources));
  return page.string();
}

}  // namespace aclnn_check
