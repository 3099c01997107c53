#include "cli/precision_options.h"

#include <iostream>

#include "golden/recorded_benchmark.h"

namespace aclnn_check {

void AddPrecisionRunOptions(CLI::App* run, RunOptions* options, PrecisionFlags* flags) {
  run->add_option("--verdict", flags->verdict,
                  "Standards that decide each point, comma-separated or repeated: element (docs/contract/numerics.md, the "
                  "default), single_bm, double_bm:L0|L1|L2 (CANN's, docs/contract/numerics.md); replaces case files' \"verdict\"");
  run->add_option("--benchmark-run", flags->benchmark_runs,
                  "Recorded run of a second implementation on the harness's inputs (golden record "
                  "--with-inputs, tools/torch_benchmark_run.py): the double benchmark's benchmark (repeatable)");
  run->add_option("--benchmark-provider", options->precision.benchmark_provider,
                  "Second provider (cpu, ref or PATH[:PATH...]) run on the same inputs as the benchmark, "
                  "for points no --benchmark-run holds and for --recheck");
  run->add_option("--recheck", options->precision.recheck,
                  "Re-check a failed double benchmark with N fresh seeds against --benchmark-provider "
                  "(bootstrap 95 % interval of the median ratio; the standard needs N >= 200)")
      ->check(CLI::NonNegativeNumber);
}

bool FinishPrecisionOptions(const PrecisionFlags& flags, RunOptions* options) {
  try {
    if (!flags.verdict.empty()) options->precision.verdict = ParseVerdicts(flags.verdict);
  } catch (const std::exception& error) {
    std::cerr << "aclnn-check: --verdict: " << error.what() << "\n";
    return false;
  }
  try {
    if (!flags.benchmark_runs.empty()) {
      options->precision.benchmark_run = std::make_shared<RecordedBenchmark>(flags.benchmark_runs);
      options->precision.benchmark_run_paths = flags.benchmark_runs;
    }
    return true;
  } catch (const std::exception& error) {
    std::cerr << "aclnn-check: --benchmark-run: " << error.what() << "\n";
    return false;
  }
}

}  // namespace aclnn_check
