// `aclnn-check bench` and `bench compare`: their options (docs/contract/benchmarks.md).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace aclnn_check {

// program is argv[0], which Google Benchmark is given.
void AddBenchCommands(CLI::App& app, const std::string& program, int* exit_code);

}  // namespace aclnn_check
