// aclnn-check: the command line (SPEC section 11).
#include <CLI/CLI.hpp>
#include <iostream>

#include "common/operator.h"

int main(int argc, char** argv) {
  CLI::App app{"aclnn-check: conformance and benchmark harness for aclnn backward operators"};
  app.require_subcommand(1);
  auto* list = app.add_subcommand("operators", "List the operators in the catalogue");
  list->callback([] {
    for (const auto& op : aclnn_check::Catalogue()) {
      std::cout << op.name() << "\t" << op.summary() << "\n";
    }
  });
  CLI11_PARSE(app, argc, argv);
  return 0;
}
