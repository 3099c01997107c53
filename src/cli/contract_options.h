// `run --contract LIST|all`: the calling patterns (docs/calling-patterns.md) run on each point
// after its default call.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/run_command.h"

namespace aclnn_check {

// The patterns named in a comma list ("all", "queued", "contract.queued", ...); throws
// CLI::ValidationError naming the unknown name and the known ones.
std::vector<Contract> ParseContractList(const std::vector<std::string>& names);

void AddContractOptions(CLI::App* run, RunOptions* options);

}  // namespace aclnn_check
