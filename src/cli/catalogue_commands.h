// `aclnn-check explain OP`, `schema` and `operators`: what the operator catalogue holds.
#pragma once

#include <CLI/CLI.hpp>

namespace aclnn_check {

// `explain OP`.
void AddExplainCommand(CLI::App& app, int* exit_code);
// `schema` and `operators`.
void AddCatalogueListings(CLI::App& app);

}  // namespace aclnn_check
