// `aclnn-check import FILE... -o DIR`: converts CANN case files and prints what was converted and
// what was skipped, by reason.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace aclnn_check {

// Exit code: 0 converted (skipped cases are reported, not an error), 2 bad input.
int ImportCommand(const std::vector<std::string>& files, const std::string& output_dir);

void AddImportCommand(CLI::App& app, int* exit_code);

}  // namespace aclnn_check
