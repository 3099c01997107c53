// `aclnn-check hunt`: an operator (or case files) in, the input on which the provider is worst
// out, as a case file with its repro line; --shrink hands a failure to `shrink`. docs/hunt.md.
#pragma once

#include <CLI/CLI.hpp>

namespace aclnn_check {

void AddHuntCommand(CLI::App& app, int* exit_code);

}  // namespace aclnn_check
