// The precision-standard parts of `run` (docs/contract/numerics.md, docs/precision-standards.md):
// --verdict, --benchmark-run, --benchmark-provider and --recheck.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/run_command.h"

namespace aclnn_check {

struct PrecisionFlags {
  std::vector<std::string> verdict;
  std::vector<std::string> benchmark_runs;
};
void AddPrecisionRunOptions(CLI::App* run, RunOptions* options, PrecisionFlags* flags);

// Parses --verdict and reads the benchmark runs; false (with the error on stderr) on bad input.
bool FinishPrecisionOptions(const PrecisionFlags& flags, RunOptions* options);

}  // namespace aclnn_check
