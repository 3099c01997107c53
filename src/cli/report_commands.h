// `aclnn-check report merge|html|trends` (docs/contract/reports.md).
#pragma once

#include <CLI/CLI.hpp>

namespace aclnn_check {

void AddReportCommands(CLI::App& app, int* exit_code);

}  // namespace aclnn_check
