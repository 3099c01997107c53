// aclnn-check: the command line (docs/contract/command-line.md).
#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/build_info.h"
#include "core/heap.h"
#include "catalogue/operator.h"
#include "cli/bench_arguments.h"
#include "cli/catalogue_commands.h"
#include "cli/golden_commands.h"
#include "cli/hunt_command.h"
#include "cli/import_command.h"
#include "cli/report_commands.h"
#include "cli/run_arguments.h"
#include "cli/shrink_command.h"

namespace {

using namespace aclnn_check;

std::string CommandLine(int argc, char** argv) {
  std::string text;
  for (int i = 0; i < argc; ++i) text += (i ? " " : "") + std::string(argv[i]);
  return text;
}

// CLI11 2.1 reads an option written with an empty value, `--history=`, as `--history` and takes
// the next argument for its value (`--history= --benchmark_filter=x` appended the history to a
// file named after the filter and ran every benchmark), or turns it into 0 (`--timeout=`). So
// `--name=` is passed on as `--name ''` for the options whose help says what '' means, and is an
// error for the others. Google Benchmark's flags pass through untouched. CLI11 takes the
// arguments last first.
std::optional<std::vector<std::string>> ArgumentsForCli11(int argc, char** argv) {
  static const std::set<std::string> kEmptyAllowed = {"--history", "--run-history"};
  std::vector<std::string> arguments;
  for (int i = argc - 1; i >= 1; --i) {
    const std::string argument = argv[i];
    const bool empty_value = argument.size() > 3 && argument.rfind("--", 0) == 0 &&
                             argument.find('=') == argument.size() - 1 &&
                             argument.rfind("--benchmark_", 0) != 0;
    if (!empty_value) {
      arguments.push_back(argument);
      continue;
    }
    const std::string name = argument.substr(0, argument.size() - 1);
    if (!kEmptyAllowed.contains(name)) {
      std::cerr << "aclnn-check: " << argument << " has no value; write " << name << " VALUE\n";
      return std::nullopt;
    }
    arguments.emplace_back();
    arguments.push_back(name);
  }
  return arguments;
}

}  // namespace

int main(int argc, char** argv) {
  // Test points allocate and free buffers of hundreds of MB one after another: their pages are
  // reused instead of faulted in again (core/heap.h).
  KeepFreedMemoryInTheHeap();
  // The catalogue is checked once, before any command: a folder with a missing function or a
  // description that does not match its folder is named here rather than crashing mid-run.
  try {
    Catalogue();
  } catch (const std::exception& error) {
    std::cerr << "aclnn-check: broken operator catalogue: " << error.what() << "\n";
    return 2;
  }
  CLI::App app{"aclnn-check: conformance and benchmark harness for aclnn backward operators"};
  app.require_subcommand(1);
  app.set_version_flag("--version", HarnessVersion());
  int exit_code = 0;

  AddRunCommand(app, CommandLine(argc, argv), &exit_code);
  AddExplainCommand(app, &exit_code);
  AddReportCommands(app, &exit_code);
  AddGoldenCommands(app, &exit_code);
  AddShrinkCommand(app, &exit_code);
  AddImportCommand(app, &exit_code);
  AddBenchCommands(app, argv[0], &exit_code);
  AddCatalogueListings(app);
  AddHuntCommand(app, &exit_code);

  try {
    std::optional<std::vector<std::string>> arguments = ArgumentsForCli11(argc, argv);
    if (!arguments) return 2;
    // The usage lines' program name: parse(argc, argv) takes it from argv, parse(vector) does not.
    app.name(argv[0]);
    app.parse(*arguments);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : 2;
  }
  return exit_code;
}
