#include "cli/bench_arguments.h"

#include <iostream>
#include <memory>
#include <string>

#include "cli/bench_command.h"

namespace aclnn_check {
namespace {

// Google Benchmark's own flags pass through; anything else is a usage error (exit 2).
int BenchWithFlags(CLI::App* bench, BenchOptions& options) {
  options.benchmark_flags = bench->remaining();
  for (const std::string& flag : options.benchmark_flags) {
    if (flag.rfind("--benchmark_", 0) != 0) {
      std::cerr << "aclnn-check bench: unknown argument " << flag
                << " (Google Benchmark flags are --benchmark_*=VALUE)\n";
      return 2;
    }
  }
  return RunBenchmarks(options);
}

void AddCompareCommand(CLI::App* bench, int* exit_code) {
  struct CompareArguments {
    std::string base, candidate;
    CompareOptions options;
  };
  auto a = std::make_shared<CompareArguments>();
  auto* compare = bench->add_subcommand("compare",
                                        "Compare two Google Benchmark JSON outputs (Mann-Whitney U "
                                        "over repetitions and a threshold); "
                                        "exit 1 on a significant regression");
  compare->allow_extras(false);
  compare->add_option("base", a->base, "BASE.json")->required();
  compare->add_option("new", a->candidate, "NEW.json")->required();
  compare
      ->add_option("--threshold", a->options.threshold,
                   "Relative change of a figure's median below which a change is noise")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  compare->add_option("--alpha", a->options.alpha, "Significance level of the U test")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  compare->callback(
      [a, exit_code] { *exit_code = CompareBenchmarkFiles(a->base, a->candidate, a->options); });
}

}  // namespace

void AddBenchCommands(CLI::App& app, const std::string& program, int* exit_code) {
  auto options = std::make_shared<BenchOptions>();
  options->program = program;
  auto* bench = app.add_subcommand(
      "bench",
      "Time test points on a provider with Google Benchmark (--benchmark_* flags pass through, "
      "written as --flag=value)");
  bench->add_option("cases", options->cases,
                    "Case files or folders (default: every operator's workloads, kernels/*/bench)");
  bench->add_option("--provider", options->provider, "cpu, ref, cuda or PATH[:PATH...]")
      ->capture_default_str();
  bench->add_option("--soc", options->soc, "SoC name to test as (overrides aclrtGetSocName)");
  bench->add_option("--json", options->json_out, "Google Benchmark JSON output")
      ->capture_default_str();
  bench
      ->add_option("--history", options->history,
                   "JSON lines file the results are appended to ('' for none)")
      ->capture_default_str();
  bench
      ->add_option("--pipelined", options->pipelined,
                   "Launches queued per synchronisation (launch throughput as a framework issues "
                   "operators); each benchmark is named .../pipelined:N")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  bench->allow_extras();
  bench->callback([bench, options, exit_code] {
    if (bench->get_subcommands().empty()) *exit_code = BenchWithFlags(bench, *options);
  });
  AddCompareCommand(bench, exit_code);
}

}  // namespace aclnn_check
