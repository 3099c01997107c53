// The precision-standard parts of `run` (docs/contract/numerics.md, docs/precision-standards.md):
// --verdict, --comparator-run, --comparator-provider and --recheck. The comparator is the second
// implementation of CANN's double benchmark, which CANN's documents call "the benchmark"; this
// project keeps that word for timing (`bench`). --benchmark-run and --benchmark-provider, the
// earlier spellings, stay as hidden aliases so that scripts keep working.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/run_command.h"

namespace aclnn_check {

struct PrecisionFlags {
  std::vector<std::string> verdict;
  std::vector<std::string> comparator_runs;
  std::vector<std::string> deprecated_benchmark_runs;  // --benchmark-run
  std::string deprecated_benchmark_provider;           // --benchmark-provider
};
void AddPrecisionRunOptions(CLI::App* run, RunOptions* options, PrecisionFlags* flags);

// Parses --verdict and reads the comparator runs; false (with the error on stderr) on bad input.
bool FinishPrecisionOptions(const PrecisionFlags& flags, RunOptions* options);

}  // namespace aclnn_check
