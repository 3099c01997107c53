// `aclnn-check run`: its options and how they become RunOptions (docs/contract/command-line.md).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace aclnn_check {

// command_line is the whole invocation, which the reports record.
void AddRunCommand(CLI::App& app, const std::string& command_line, int* exit_code);

}  // namespace aclnn_check
