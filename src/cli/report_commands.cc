#include "cli/report_commands.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "report/html_report.h"
#include "report/report_files.h"
#include "report/report_json.h"
#include "report/run_history.h"
#include "report/trend_page.h"
#include "results/atomic_file.h"

namespace aclnn_check {
namespace {

struct MergeArguments {
  std::vector<std::string> inputs;
  std::string output = "reports/merged";
  std::string history = "reports/history.jsonl";
};

// Exit code: 0, 1 when the merged run has a failure or error, 2 bad input.
int MergeCommand(const MergeArguments& a) {
  try {
    const nlohmann::json merged = MergeReports(a.inputs);
    WriteReports(merged, a.output);
    // The shards appended nothing: the merged run is the data point of the trends.
    if (!a.history.empty() && !merged.at("run").value("interrupted", false)) {
      AppendJsonLine(a.history, RunHistoryEntry(merged));
    }
    const auto& totals = merged.at("totals");
    std::cout << totals.at("test_points") << " test points: " << totals.at("passed") << " passed, "
              << totals.at("failed") << " failed; reports in " << a.output << "\n";
    return totals.at("failed").get<int>() + totals.at("errors").get<int>() > 0 ? 1 : 0;
  } catch (const std::exception& error) {
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return 2;
  }
}

void AddMergeCommand(CLI::App* report, int* exit_code) {
  auto a = std::make_shared<MergeArguments>();
  auto* merge = report->add_subcommand("merge", "Join shard reports into one and write all reports again");
  merge->add_option("reports", a->inputs, "report.json files")->required();
  merge->add_option("-o,--output", a->output, "Output folder")->capture_default_str();
  merge->add_option("--run-history", a->history,
                    "JSON lines file the merged run's summary is appended to, for `report trends` ('' for none)")
      ->capture_default_str();
  merge->callback([a, exit_code] { *exit_code = MergeCommand(*a); });
}

void AddHtmlCommand(CLI::App* report, int* exit_code) {
  struct HtmlArguments {
    std::string input, output;
  };
  auto a = std::make_shared<HtmlArguments>();
  auto* html = report->add_subcommand("html", "Write report.html from a report.json");
  html->add_option("report", a->input, "report.json")->required();
  html->add_option("-o,--output", a->output, "Output file (default: report.html beside the report)");
  html->callback([a, exit_code] {
    try {
      const std::filesystem::path output =
          a->output.empty() ? std::filesystem::path(a->input).parent_path() / "report.html"
                            : std::filesystem::path(a->output);
      WriteFileAtomically(output, HtmlReport(LoadReport(a->input)));
      std::cout << "wrote " << output.string() << "\n";
    } catch (const std::exception& error) {
      std::cerr << "aclnn-check: " << error.what() << "\n";
      *exit_code = 2;
    }
  });
}

// `report trends [--bench-history F] [--run-history F] -o DIR`.
void AddTrendsCommand(CLI::App* report, int* exit_code) {
  struct TrendArguments {
    TrendPageInputs inputs;
    std::string output = "reports/trends";
  };
  auto arguments = std::make_shared<TrendArguments>();
  auto* trends = report->add_subcommand(
      "trends", "Write trends.html: benchmark and conformance history over runs");
  trends->add_option("--bench-history", arguments->inputs.bench_history,
                     "Benchmark history (JSON lines of `bench --history`)")
      ->capture_default_str();
  trends->add_option("--run-history", arguments->inputs.run_history,
                     "Conformance history (JSON lines of `run --run-history`)")
      ->capture_default_str();
  trends->add_option("-o,--output", arguments->output, "Output folder")->capture_default_str();
  trends->callback([arguments, exit_code] {
    try {
      const std::string written = WriteTrendPage(arguments->inputs, arguments->output);
      std::cout << "wrote " << written << "\n";
      *exit_code = 0;
    } catch (const std::exception& error) {
      std::cerr << "aclnn-check: " << error.what() << "\n";
      *exit_code = 2;
    }
  });
}

}  // namespace

void AddReportCommands(CLI::App& app, int* exit_code) {
  auto* report = app.add_subcommand("report", "Work with reports");
  report->require_subcommand(1);
  AddMergeCommand(report, exit_code);
  AddHtmlCommand(report, exit_code);
  AddTrendsCommand(report, exit_code);
}

}  // namespace aclnn_check
