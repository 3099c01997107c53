// aclnn-check: the command line (SPEC section 11).
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/build_info.h"
#include "core/heap.h"
#include "cases/case_file.h"
#include "cases/case_schema.h"
#include "cli/bench_command.h"
#include "cli/contract_options.h"
#include "cli/explain.h"
#include "cli/golden_commands.h"
#include "cli/import_command.h"
#include "cli/precision_options.h"
#include "cli/release_gate_options.h"
#include "cli/run_command.h"
#include "cli/shrink_command.h"
#include "report/html_report.h"
#include "report/report_files.h"
#include "report/report_json.h"
#include "report/run_history.h"
#include "results/atomic_file.h"

namespace {

using namespace aclnn_check;

std::string CommandLine(int argc, char** argv) {
  std::string text;
  for (int i = 0; i < argc; ++i) text += (i ? " " : "") + std::string(argv[i]);
  return text;
}

// CI systems set no terminal, or say so.
bool InteractiveTerminal() {
  return isatty(STDERR_FILENO) && !std::getenv("CI");
}

// --shard, else the variables CI systems and schedulers set.
std::pair<int, int> ShardFromEnvironment(int total_for_indexed_job) {
  if (const char* index = std::getenv("CI_NODE_INDEX")) {
    const char* total = std::getenv("CI_NODE_TOTAL");
    return ParseShard(std::string(index) + "/" + (total ? total : "1"));
  }
  if (const char* index = std::getenv("JOB_COMPLETION_INDEX")) {
    if (total_for_indexed_job < 1) {
      throw std::invalid_argument(
          "JOB_COMPLETION_INDEX is set: give the job's completions with --shard-total N");
    }
    return ParseShard(std::to_string(std::stoi(index) + 1) + "/" + std::to_string(total_for_indexed_job));
  }
  return {1, 1};
}

// CLI11 2.1 reads an option written with an empty value, `--history=`, as `--history` and takes
// the next argument for its value (`--history= --benchmark_filter=x` appended the history to a
// file named after the filter and ran every benchmark), or turns it into 0 (`--timeout=`). So
// `--name=` is passed on as `--name ''` for the options whose help says what '' means, and is an
// error for the others. Google Benchmark's flags pass through untouched. CLI11 takes the
// arguments last first.
std::optional<std::vector<std::string>> ArgumentsForCli11(int argc, char** argv) {
  static const std::set<std::string> kEmptyAllowed = {"--history", "--run-history"};
  std::vector<std::string> arguments;
  for (int i = argc - 1; i >= 1; --i) {
    const std::string argument = argv[i];
    const bool empty_value = argument.size() > 3 && argument.rfind("--", 0) == 0 &&
                             argument.find('=') == argument.size() - 1 &&
                             argument.rfind("--benchmark_", 0) != 0;
    if (!empty_value) {
      arguments.push_back(argument);
      continue;
    }
    const std::string name = argument.substr(0, argument.size() - 1);
    if (!kEmptyAllowed.contains(name)) {
      std::cerr << "aclnn-check: " << argument << " has no value; write " << name << " VALUE\n";
      return std::nullopt;
    }
    arguments.emplace_back();
    arguments.push_back(name);
  }
  return arguments;
}

}  // namespace

int main(int argc, char** argv) {
  // Test points allocate and free buffers of hundreds of MB one after another: their pages are
  // reused instead of faulted in again (core/heap.h).
  KeepFreedMemoryInTheHeap();
  // The catalogue is checked once, before any command: a folder with a missing function or a
  // description that does not match its folder is named here rather than crashing mid-run.
  try {
    Catalogue();
  } catch (const std::exception& error) {
    std::cerr << "aclnn-check: broken operator catalogue: " << error.what() << "\n";
    return 2;
  }
  CLI::App app{"aclnn-check: conformance and benchmark harness for aclnn backward operators"};
  app.require_subcommand(1);
  app.set_version_flag("--version", HarnessVersion());
  int exit_code = 0;

  RunOptions run;
  std::string shard;
  int shard_total = 0;
  auto* run_cmd = app.add_subcommand("run", "Run case files on a provider and write reports");
  run_cmd->add_option("cases", run.cases, "Case files or folders (default: cases)");
  run_cmd->add_option("--provider", run.provider, "cpu, ref, cuda or PATH[:PATH...]")->capture_default_str();
  run_cmd->add_option("--soc", run.soc, "SoC name to test as (overrides aclrtGetSocName)");
  run_cmd->add_option("--filter", run.filter, "Glob on test point ids")->capture_default_str();
  run_cmd->add_option("--shard", shard, "Run shard I of N (I/N, 1-based); default from CI_NODE_INDEX/CI_NODE_TOTAL or JOB_COMPLETION_INDEX");
  run_cmd->add_option("--shard-total", shard_total, "Number of shards when JOB_COMPLETION_INDEX (Kubernetes Indexed Job) gives the index");
  run_cmd->add_option("--jobs,-j", run.jobs, "Worker threads")->check(CLI::PositiveNumber);
  run_cmd->add_option("--timeout", run.timeout_seconds, "Seconds per test point")->capture_default_str();
  run_cmd->add_option("--report-dir", run.report_dir, "Where reports go")->capture_default_str();
  run_cmd->add_flag("--require-all", run.require_all, "Operators the provider lacks count as failures");
  run_cmd->add_flag("--list", run.list_only, "List the selected test point ids and exit");
  run_cmd->add_option("--profile", run.profiles, "Profile of rule overrides (repeatable)");
  bool no_isolate = false;
  run_cmd->add_flag("--no-isolate", no_isolate,
                    "Run test points in this process (for debugging; a crash ends the run)");
  double max_memory_gib = 0;
  run_cmd->add_option("--max-memory", max_memory_gib,
                      "GiB a test point may use; larger ones are refused (default: half the machine)");
  ReleaseGateRunFlags release_gate_flags;
  run.run_history = "reports/history.jsonl";
  AddReleaseGateRunOptions(run_cmd, &run, &release_gate_flags);
  PrecisionFlags precision_flags;
  AddPrecisionRunOptions(run_cmd, &run, &precision_flags);
  AddContractOptions(run_cmd, &run);
  run_cmd->callback([&] {
    try {
      std::tie(run.shard_index, run.shard_total) = shard.empty() ? ShardFromEnvironment(shard_total) : ParseShard(shard);
    } catch (const std::exception& error) {
      std::cerr << "aclnn-check: " << error.what() << "\n";
      exit_code = 2;
      return;
    }
    run.progress = InteractiveTerminal();
    run.isolate = !no_isolate;
    run.max_memory_bytes = static_cast<uint64_t>(max_memory_gib * (1ull << 30));
    run.command_line = CommandLine(argc, argv);
    FinishRunOptions(release_gate_flags, &run);
    if (!FinishPrecisionOptions(precision_flags, &run)) {
      exit_code = 2;
      return;
    }
    exit_code = Run(run);
  });

  std::string op_name;
  auto* explain = app.add_subcommand("explain", "Axes, dtype matrix, rules and tolerances of an operator");
  explain->add_option("op", op_name, "Operator name, e.g. LogitGrad")->required();
  explain->callback([&] {
    const Operator* op = FindOperator(op_name);
    if (!op) {
      std::cerr << "aclnn-check: unknown operator " << op_name << " (known:";
      for (const Operator& known : Catalogue()) std::cerr << " " << known.name();
      std::cerr << ")\n";
      exit_code = 2;
      return;
    }
    Explain(*op, std::cout);
  });

  auto* report = app.add_subcommand("report", "Work with reports");
  report->require_subcommand(1);
  std::vector<std::string> merge_inputs;
  std::string merge_output = "reports/merged";
  auto* merge = report->add_subcommand("merge", "Join shard reports into one and write all reports again");
  merge->add_option("reports", merge_inputs, "report.json files")->required();
  merge->add_option("-o,--output", merge_output, "Output folder")->capture_default_str();
  std::string merge_history = "reports/history.jsonl";
  merge->add_option("--run-history", merge_history,
                    "JSON lines file the merged run's summary is appended to, for `report trends` ('' for none)")
      ->capture_default_str();
  merge->callback([&] {
    try {
      const nlohmann::json merged = MergeReports(merge_inputs);
      WriteReports(merged, merge_output);
      // The shards appended nothing: the merged run is the data point of the trends.
      if (!merge_history.empty() && !merged.at("run").value("interrupted", false)) {
        AppendJsonLine(merge_history, RunHistoryEntry(merged));
      }
      const auto& totals = merged.at("totals");
      std::cout << totals.at("test_points") << " test points: " << totals.at("passed") << " passed, "
                << totals.at("failed") << " failed; reports in " << merge_output << "\n";
      exit_code = totals.at("failed").get<int>() + totals.at("errors").get<int>() > 0 ? 1 : 0;
    } catch (const std::exception& error) {
      std::cerr << "aclnn-check: " << error.what() << "\n";
      exit_code = 2;
    }
  });

  std::string html_input, html_output;
  auto* html = report->add_subcommand("html", "Write report.html from a report.json");
  html->add_option("report", html_input, "report.json")->required();
  html->add_option("-o,--output", html_output, "Output file (default: report.html beside the report)");
  html->callback([&] {
    try {
      const std::filesystem::path output =
          html_output.empty() ? std::filesystem::path(html_input).parent_path() / "report.html"
                              : std::filesystem::path(html_output);
      WriteFileAtomically(output, HtmlReport(LoadReport(html_input)));
      std::cout << "wrote " << output.string() << "\n";
    } catch (const std::exception& error) {
      std::cerr << "aclnn-check: " << error.what() << "\n";
      exit_code = 2;
    }
  });

  AddTrendsCommand(report, &exit_code);

  AddGoldenCommands(app, &exit_code);

  AddShrinkCommand(app, &exit_code);

  std::vector<std::string> import_inputs;
  std::string import_output;
  auto* import_cmd = app.add_subcommand(
      "import", "Convert CANN case files (ATK JSON, ST CSV; detected by content) into case files");
  import_cmd->add_option("files", import_inputs, "CANN case files")->required();
  import_cmd->add_option("-o,--output", import_output, "Folder for the converted case files")->required();
  import_cmd->callback([&] { exit_code = ImportCommand(import_inputs, import_output); });

  BenchOptions bench_options;
  auto* bench = app.add_subcommand(
      "bench",
      "Time test points on a provider with Google Benchmark (--benchmark_* flags pass through, "
      "written as --flag=value)");
  bench->add_option("cases", bench_options.cases,
                    "Case files or folders (default: every operator's workloads, kernels/*/bench)");
  bench->add_option("--provider", bench_options.provider, "cpu, ref, cuda or PATH[:PATH...]")
      ->capture_default_str();
  bench->add_option("--soc", bench_options.soc, "SoC name to test as (overrides aclrtGetSocName)");
  bench->add_option("--json", bench_options.json_out, "Google Benchmark JSON output")
      ->capture_default_str();
  bench
      ->add_option("--history", bench_options.history,
                   "JSON lines file the results are appended to ('' for none)")
      ->capture_default_str();
  bench->allow_extras();
  bench->callback([&] {
    if (bench->get_subcommands().empty()) {
      bench_options.program = argv[0];
      bench_options.benchmark_flags = bench->remaining();
      for (const std::string& flag : bench_options.benchmark_flags) {
        if (flag.rfind("--benchmark_", 0) != 0) {
          std::cerr << "aclnn-check bench: unknown argument " << flag
                    << " (Google Benchmark flags are --benchmark_*=VALUE)\n";
          exit_code = 2;
          return;
        }
      }
      exit_code = RunBenchmarks(bench_options);
    }
  });
  std::string compare_base, compare_new;
  CompareOptions compare_options;
  auto* compare = bench->add_subcommand("compare",
                                        "Compare two Google Benchmark JSON outputs (Mann-Whitney U "
                                        "over repetitions and a threshold); "
                                        "exit 1 on a significant regression");
  compare->allow_extras(false);
  compare->add_option("base", compare_base, "BASE.json")->required();
  compare->add_option("new", compare_new, "NEW.json")->required();
  compare
      ->add_option("--threshold", compare_options.threshold,
                   "Relative change of the median real time below which a change is noise")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  compare->add_option("--alpha", compare_options.alpha, "Significance level of the U test")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  compare->callback(
      [&] { exit_code = CompareBenchmarkFiles(compare_base, compare_new, compare_options); });

  auto* schema = app.add_subcommand("schema", "Print the case-file JSON Schema (cases/schema.json)");
  schema->callback([&] { std::cout << CaseFileSchema().dump(2) << "\n"; });

  auto* operators = app.add_subcommand("operators", "List the operators in the catalogue");
  operators->callback([&] {
    for (const auto& op : Catalogue()) std::cout << op.name() << "\t" << op.summary() << "\n";
  });

  try {
    std::optional<std::vector<std::string>> arguments = ArgumentsForCli11(argc, argv);
    if (!arguments) return 2;
    // The usage lines' program name: parse(argc, argv) takes it from argv, parse(vector) does not.
    app.name(argv[0]);
    app.parse(*arguments);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : 2;
  }
  return exit_code;
}
