// `aclnn-check bench` and `aclnn-check bench compare` (docs/contract/benchmarks.md and
// docs/contract/command-line.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/benchmark_comparison.h"

namespace aclnn_check {

struct BenchOptions {
  std::vector<std::string> cases;  // none: every operator's kernels/<folder>/bench
  std::string provider = "cpu";
  std::optional<std::string> soc;
  std::string json_out = "reports/bench/latest.json";
  std::string history = "reports/bench/history.jsonl";  // "" appends nowhere
  int pipelined = 1;  // launches per synchronisation (PointBenchmarkOptions)
  std::string program;                                  // argv[0], for Google Benchmark
  std::vector<std::string> benchmark_flags;             // --benchmark_* passed through
};

// One Google Benchmark per test point that must succeed, in case order, named by the point's id
// (with "/pipelined:N" when pipelined > 1);
// writes Google Benchmark's JSON to json_out and appends the history. Exit code: 0, 1 when a
// benchmark failed, 2 bad usage or bad input (case file, provider, unknown flag).
int RunBenchmarks(const BenchOptions& options);

// Prints the comparison table. Exit code: 0, 1 on a significant regression (or a benchmark that
// failed in NEW), 2 when a file is not Google Benchmark JSON or the files share no benchmark.
int CompareBenchmarkFiles(const std::string& base_file, const std::string& new_file,
                          const CompareOptions& options);

}  // namespace aclnn_check
