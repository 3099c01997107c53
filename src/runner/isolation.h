// Provider isolation: test points run in forked worker processes, so a provider that crashes,
// hangs or corrupts memory takes down one worker, not the harness. Workers are reused while
// healthy; a crashed or timed-out one is replaced and the run goes on.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/execute.h"
#include "runner/result_sink.h"

namespace aclnn_check {

// What a worker learns when it loads the provider: run in a throwaway child so the harness
// process never loads provider code itself.
struct ProviderProbe {
  std::string error;  // empty when the provider loaded
  std::optional<std::string> soc;
  std::optional<uint32_t> devices;  // aclrtGetDeviceCount, for `run --devices`
};
// Kills the worker and reports an error when the provider has not answered within timeout_seconds.
ProviderProbe ProbeProvider(const std::string& spec, double timeout_seconds);

struct IsolationOptions {
  int workers = 1;
  // Seconds a test point may take before its worker is killed.
  std::function<double(const TestPoint&)> timeout_of;
};

// Runs the points in worker processes. Each result (a report test point) is passed to on_result
// as it arrives, with the point's position. Returns false when interrupted (SIGINT/SIGTERM):
// workers are killed and the points not yet finished produce no result.
bool RunIsolated(const std::string& provider_spec, const RunContext& context,
                 const std::vector<const TestPoint*>& points, const IsolationOptions& options,
                 const ResultSink& on_result);

// The result of a point that did not finish: the worker crashed, hung or exited.
TestPointResult AbortedResult(const TestPoint& point, const RunContext& context,
                              const std::string& rule, const std::string& message);

// "SIGSEGV (Segmentation fault)".
std::string SignalName(int signal_number);

}  // namespace aclnn_check
