#include "cli/release_gate_options.h"

#include <iostream>

#include "report/trend_page.h"

namespace aclnn_check {

void AddReleaseGateRunOptions(CLI::App* run, RunOptions* options, ReleaseGateRunFlags* flags) {
  run->add_option("--repeat", options->repeat,
                  "Call each test point N times (new executor, same inputs); outputs must be "
                  "bit-identical (rule harness.deterministic; docs/contract/numerics.md asks 50 for L0/L1, 1000 for L2)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  run->add_option("--save-failures", options->save_failures,
                  "Folder for each failing point's inputs, outputs, reference and errors (.npy) and "
                  "manifest.json (docs/failure-data.md)");
  run->add_option("--save-failures-max-mb", flags->save_failures_max_mb,
                  "MiB the saved failure data may take in all; points beyond get only a manifest")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  run->add_option("--run-history", options->run_history,
                  "JSON lines file a summary of the run is appended to, for `report trends` ('' for none; "
                  "a shard appends nothing, `report merge` appends the merged run)")
      ->capture_default_str();
}

void FinishRunOptions(const ReleaseGateRunFlags& flags, RunOptions* options) {
  options->save_failures_max_bytes = static_cast<uint64_t>(flags.save_failures_max_mb * (1 << 20));
}

void AddTrendsCommand(CLI::App* report, int* exit_code) {
  struct TrendArguments {
    TrendPageInputs inputs;
    std::string output = "reports/trends";
  };
  auto arguments = std::make_shared<TrendArguments>();
  auto* trends = report->add_subcommand(
      "trends", "Write trends.html: benchmark and conformance history over runs");
  trends->add_option("--bench-history", arguments->inputs.bench_history,
                     "Benchmark history (JSON lines of `bench --history`)")
      ->capture_default_str();
  trends->add_option("--run-history", arguments->inputs.run_history,
                     "Conformance history (JSON lines of `run --run-history`)")
      ->capture_default_str();
  trends->add_option("-o,--output", arguments->output, "Output folder")->capture_default_str();
  trends->callback([arguments, exit_code] {
    try {
      const std::string written = WriteTrendPage(arguments->inputs, arguments->output);
      std::cout << "wrote " << written << "\n";
      *exit_code = 0;
    } catch (const std::exception& error) {
      std::cerr << "aclnn-check: " << error.what() << "\n";
      *exit_code = 2;
    }
  });
}

}  // namespace aclnn_check
