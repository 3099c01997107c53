#include "bench/timed_loop.h"

#include <sys/resource.h>

namespace aclnn_check {

long MinorPageFaults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

std::string FirstLineOf(const std::exception& error) {
  const std::string text = error.what();
  return text.substr(0, text.find('\n'));
}

void ReportThroughput(benchmark::State& state, const MinimumTraffic& traffic, double loop_seconds,
                      long page_faults) {
  const double iterations = static_cast<double>(state.iterations());
  if (iterations == 0 || loop_seconds <= 0) return;
  // A counter that is 0 in every repetition makes Google Benchmark write its coefficient of
  // variation as NaN, which is not JSON: zero counters are left out (absent means 0).
  if (traffic.bytes > 0) {
    state.counters["bytes_per_second"] = iterations * static_cast<double>(traffic.bytes) / loop_seconds;
  }
  if (traffic.items > 0) {
    state.counters["items_per_second"] = iterations * static_cast<double>(traffic.items) / loop_seconds;
  }
  if (page_faults > 0) state.counters["page_faults"] = static_cast<double>(page_faults) / iterations;
}

}  // namespace aclnn_check
