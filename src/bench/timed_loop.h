// The timed loop of every benchmark (aclnn-check bench, and aclnn_bench's provider, triad and
// peers), so that all of them are timed and credited the same way.
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>
#include <exception>
#include <string>

#include "bench/minimum_traffic.h"

namespace aclnn_check {

// Minor page faults of the whole process so far (every thread).
long MinorPageFaults();

// Counters from one timed loop: bytes_per_second and items_per_second over the loop's real time
// (wall clock: the work runs on other threads too, so the calling thread's CPU time would
// overstate the rate), and page_faults per iteration (absent: none, the loop touches no fresh
// memory). Counters that would be 0 are left out.
// Set as plain counters rather than through UseRealTime(), which would append "/real_time" to
// every benchmark name.
void ReportThroughput(benchmark::State& state, const MinimumTraffic& traffic, double loop_seconds,
                      long page_faults);

// The first line of an exception's message (libraries append backtraces), for SkipWithError.
std::string FirstLineOf(const std::exception& error);

// Calls `launch` once untimed (first touch of outputs, workspace and caches), then once per
// iteration, and reports the counters above. An exception becomes the benchmark's error.
template <typename Launch>
void TimedLoop(benchmark::State& state, const MinimumTraffic& traffic, Launch&& launch) {
  try {
    launch();
    const long faults_before = MinorPageFaults();
    const auto start = std::chrono::steady_clock::now();
    for (auto _ : state) launch();
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    ReportThroughput(state, traffic, elapsed.count(), MinorPageFaults() - faults_before);
  } catch (const std::exception& error) {
    state.SkipWithError(FirstLineOf(error).c_str());
  }
}

}  // namespace aclnn_check
