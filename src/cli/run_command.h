// `aclnn-check run`: loads and expands every case before running anything, adds the product's
// matrix checks, filters and shards, runs the points on --jobs workers, and writes the reports.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runner/precision_gate.h"

#include "runner/contract.h"

namespace aclnn_check {

struct RunOptions {
  std::vector<std::string> cases = {"cases"};
  std::string provider = "cpu";
  std::optional<std::string> soc;
  std::string filter = "*";
  int shard_index = 1;  // 1-based
  int shard_total = 1;
  int jobs = 1;
  double timeout_seconds = 60;
  std::string report_dir = "reports/latest";
  bool resume = false;  // --resume DIR: report_dir's journal names the points already finished
  // --overwrite: a new run may replace a journal of an unfinished run (docs/journal-and-resume.md)
  bool overwrite = false;
  bool require_all = false;
  bool list_only = false;
  std::vector<std::string> profiles;
  bool progress = false;  // a progress line on stderr
  bool isolate = true;    // run test points in worker processes (--no-isolate: in this process)
  uint64_t max_memory_bytes = 0;  // 0: half of the machine's memory
  std::string command_line;  // as typed, for the report
  int repeat = 1;                   // --repeat: calls per point, outputs bit-identical
  std::string save_failures;        // --save-failures DIR ('' for none)
  uint64_t save_failures_max_bytes = uint64_t{1} << 30;  // --save-failures-max-mb
  std::string run_history;          // --run-history FILE: one summary line appended ('' for none)
  PrecisionGateOptions precision;   // --verdict, --comparator-run, --comparator-provider, --recheck
  std::vector<Contract> contracts;  // --contract (cli/contract_options.h)
  std::vector<int32_t> devices;     // --devices: contract.devices_agree's devices (none: not run)
  bool case_file_contracts = true;  // false with --contract none
};

// Exit code: 0 all passed, 1 a test point failed, 2 bad usage or bad input, 130 interrupted
// (the partial report is written).
int Run(const RunOptions& options);

constexpr int kInterruptedExitCode = 130;

// The start of a repro line, "aclnn-check run --provider ... --soc ... [--profile ...]": the
// running executable and every path made absolute, so the line works from any folder.
std::string ReproPrefix(const RunOptions& options, const std::string& soc);

// I/N from "--shard I/N" or the environment (CI_NODE_INDEX/CI_NODE_TOTAL, or
// JOB_COMPLETION_INDEX with a given total); throws std::invalid_argument.
std::pair<int, int> ParseShard(const std::string& text);

}  // namespace aclnn_check
