#include "cli/run_arguments.h"

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <utility>

#include "cli/contract_options.h"
#include "cli/precision_options.h"
#include "cli/run_command.h"

namespace aclnn_check {
namespace {

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

// --repeat, --save-failures, --save-failures-max-mb and --run-history: what a release gate asks of
// a run beyond its verdict.
struct ReleaseGateFlags {
  double save_failures_max_mb = 1024;
};

void AddReleaseGateOptions(CLI::App* run, RunOptions* options, ReleaseGateFlags* flags) {
  run->add_option("--repeat", options->repeat,
                  "Call each test point N times (new executor, same inputs); outputs must be "
                  "bit-identical (rule harness.deterministic; docs/contract/numerics.md asks 50 for L0/L1, 1000 for L2)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  run->add_option("--save-failures", options->save_failures,
                  "Folder for each failing point's inputs, outputs, reference and errors (.npy) and "
                  "manifest.json (docs/failure-data.md)");
  run->add_option("--save-failures-max-mb", flags->save_failures_max_mb,
                  "MiB the saved failure data may take in all; points beyond get only a manifest")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  run->add_option("--run-history", options->run_history,
                  "JSON lines file a summary of the run is appended to, for `report trends` ('' for none; "
                  "a shard appends nothing, `report merge` appends the merged run)")
      ->capture_default_str();
}

void FinishReleaseGateOptions(const ReleaseGateFlags& flags, RunOptions* options) {
  options->save_failures_max_bytes = static_cast<uint64_t>(flags.save_failures_max_mb * (1 << 20));
}

// What the run command's options fill before they become RunOptions.
struct RunArguments {
  RunOptions run;
  std::string shard;
  int shard_total = 0;
  bool no_isolate = false;
  double max_memory_gib = 0;
  std::string resume_dir;
  ReleaseGateFlags release_gate_flags;
  PrecisionFlags precision_flags;
  ContractFlags contract_flags;
};

void AddRunOptions(CLI::App* run_cmd, RunArguments& a) {
  RunOptions& run = a.run;
  run_cmd->add_option("cases", run.cases, "Case files or folders (default: cases)");
  run_cmd->add_option("--provider", run.provider, "cpu, ref, cuda or PATH[:PATH...]")->capture_default_str();
  run_cmd->add_option("--soc", run.soc, "SoC name to test as (overrides aclrtGetSocName)");
  run_cmd->add_option("--filter", run.filter, "Glob on test point ids")->capture_default_str();
  run_cmd->add_option("--shard", a.shard, "Run shard I of N (I/N, 1-based); default from CI_NODE_INDEX/CI_NODE_TOTAL or JOB_COMPLETION_INDEX");
  run_cmd->add_option("--shard-total", a.shard_total, "Number of shards when JOB_COMPLETION_INDEX (Kubernetes Indexed Job) gives the index");
  run_cmd->add_option("--jobs,-j", run.jobs, "Worker threads")->check(CLI::PositiveNumber);
  run_cmd->add_option("--timeout", run.timeout_seconds, "Seconds per test point")->capture_default_str();
  run_cmd->add_option("--report-dir", run.report_dir, "Where reports go")->capture_default_str();
  run_cmd->add_option("--resume", a.resume_dir,
                      "Finish the run whose report folder (and journal) is DIR: only its unfinished points run");
  run_cmd->add_flag("--overwrite", run.overwrite,
                    "Start anew in a report folder whose journal holds an unfinished run (its "
                    "finished points are dropped); without it such a run must be --resume'd");
  run_cmd->add_flag("--require-all", run.require_all, "Operators the provider lacks count as failures");
  run_cmd->add_flag("--list", run.list_only, "List the selected test point ids and exit");
  run_cmd->add_option("--profile", run.profiles, "Profile of rule overrides (repeatable)");
  run_cmd->add_flag("--no-isolate", a.no_isolate,
                    "Run test points in this process (for debugging; a crash ends the run)");
  run_cmd->add_option("--max-memory", a.max_memory_gib,
                      "GiB a test point may use; larger ones are refused (default: half the machine)");
  run.run_history = "reports/history.jsonl";
  AddReleaseGateOptions(run_cmd, &run, &a.release_gate_flags);
  AddPrecisionRunOptions(run_cmd, &run, &a.precision_flags);
  AddContractOptions(run_cmd, &a.contract_flags);
}

// The options as RunOptions, then the run. Exit code as Run's; 2 for options that do not fit.
int RunWithArguments(RunArguments& a, const std::string& command_line) {
  RunOptions& run = a.run;
  try {
    std::tie(run.shard_index, run.shard_total) =
        a.shard.empty() ? ShardFromEnvironment(a.shard_total) : ParseShard(a.shard);
  } catch (const std::exception& error) {
    std::cerr << "aclnn-check: " << error.what() << "\n";
    return 2;
  }
  if (!a.resume_dir.empty()) {
    if (run.overwrite) {
      std::cerr << "aclnn-check: --resume and --overwrite exclude each other: --resume keeps the "
                   "journal's finished points, --overwrite drops them\n";
      return 2;
    }
    run.report_dir = a.resume_dir;
    run.resume = true;
  }
  run.progress = InteractiveTerminal();
  run.isolate = !a.no_isolate;
  run.max_memory_bytes = static_cast<uint64_t>(a.max_memory_gib * (1ull << 30));
  run.command_line = command_line;
  FinishReleaseGateOptions(a.release_gate_flags, &run);
  if (!FinishPrecisionOptions(a.precision_flags, &run)) return 2;
  if (!FinishContractOptions(a.contract_flags, &run)) return 2;
  return Run(run);
}

}  // namespace

void AddRunCommand(CLI::App& app, const std::string& command_line, int* exit_code) {
  auto arguments = std::make_shared<RunArguments>();
  auto* run_cmd = app.add_subcommand("run", "Run case files on a provider and write reports");
  AddRunOptions(run_cmd, *arguments);
  run_cmd->callback([arguments, command_line, exit_code] {
    *exit_code = RunWithArguments(*arguments, command_line);
  });
}

}  // namespace aclnn_check
