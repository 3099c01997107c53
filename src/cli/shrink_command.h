// `aclnn-check shrink`: a failing test point's repro arguments in, the smallest case file that
// still fails the same rule out (written, printed, with its repro line). docs/shrink.md.
#pragma once

#include <CLI/CLI.hpp>

namespace aclnn_check {

void AddShrinkCommand(CLI::App& app, int* exit_code);

}  // namespace aclnn_check
