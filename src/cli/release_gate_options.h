// The release-gate parts of the command line (issue 27): `run --repeat`, `run --save-failures`
// and `report trends`, kept apart from main.cc.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/run_command.h"

namespace aclnn_check {

// --repeat, --save-failures and --save-failures-max-mb on `run`; call FinishRunOptions in the
// subcommand's callback.
struct ReleaseGateRunFlags {
  double save_failures_max_mb = 1024;
};
void AddReleaseGateRunOptions(CLI::App* run, RunOptions* options, ReleaseGateRunFlags* flags);
void FinishRunOptions(const ReleaseGateRunFlags& flags, RunOptions* options);

// `report trends [--bench-history F] [--run-history F] -o DIR`.
void AddTrendsCommand(CLI::App* report, int* exit_code);

}  // namespace aclnn_check
