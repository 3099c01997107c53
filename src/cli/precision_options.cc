#include "cli/precision_options.h"

#include <iostream>

#include "golden/recorded_comparator.h"

namespace aclnn_check {

void AddPrecisionRunOptions(CLI::App* run, RunOptions* options, PrecisionFlags* flags) {
  run->add_option("--verdict", flags->verdict,
                  "Standards that decide each point, comma-separated or repeated: element (docs/contract/numerics.md, the "
                  "default), single_bm, double_bm:L0|L1|L2 (CANN's, docs/contract/numerics.md); replaces case files' \"verdict\"");
  run->add_option("--comparator-run", flags->comparator_runs,
                  "Recorded run of a second implementation on the harness's inputs (golden record "
                  "--with-inputs, tools/torch_comparator_run.py): the comparator of CANN's double "
                  "benchmark, which CANN calls its benchmark (repeatable)");
  run->add_option("--comparator-provider", options->precision.comparator_provider,
                  "Second provider (cpu, ref or PATH[:PATH...]) run on the same inputs as the comparator, "
                  "for points no --comparator-run holds and for --recheck");
  // The earlier spellings, hidden from --help (an empty group).
  run->add_option("--benchmark-run", flags->deprecated_benchmark_runs,
                  "Deprecated spelling of --comparator-run")
      ->group("");
  run->add_option("--benchmark-provider", flags->deprecated_benchmark_provider,
                  "Deprecated spelling of --comparator-provider")
      ->group("");
  run->add_option("--recheck", options->precision.recheck,
                  "Re-check a failed double benchmark with N fresh seeds against --comparator-provider "
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
  if (options->precision.comparator_provider.empty()) {
    options->precision.comparator_provider = flags.deprecated_benchmark_provider;
  }
  std::vector<std::string> runs = flags.comparator_runs;
  runs.insert(runs.end(), flags.deprecated_benchmark_runs.begin(),
              flags.deprecated_benchmark_runs.end());
  try {
    if (!runs.empty()) {
      options->precision.comparator_run = std::make_shared<RecordedComparator>(runs);
      options->precision.comparator_run_paths = runs;
    }
    return true;
  } catch (const std::exception& error) {
    std::cerr << "aclnn-check: --comparator-run: " << error.what() << "\n";
    return false;
  }
}

}  // namespace aclnn_check
