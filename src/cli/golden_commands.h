// `aclnn-check golden inputs|verify|record|diff` (docs/contract/golden.md): the subcommands and
// their options.
#pragma once

#include <CLI/CLI.hpp>

namespace aclnn_check {

// Adds the `golden` subcommand to app; the chosen command's exit code goes to *exit_code.
void AddGoldenCommands(CLI::App& app, int* exit_code);

}  // namespace aclnn_check
