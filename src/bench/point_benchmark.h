// Google Benchmarks that call a test point on a provider: the shared body of `aclnn-check bench`
// (one benchmark per test point) and of bench/aclnn_bench (named workloads at large sizes).
#pragma once

#include <string>

#include "cases/test_point.h"
#include "device_access/device.h"

namespace aclnn_check {

// The counters each benchmark reports beside its time (docs/contract/benchmarks.md): the host
// seconds per launch of GetWorkspaceSize and of the execute call, and launches issued per second
// of host time (GetWorkspaceSize + execute, no synchronisation).
inline constexpr const char* kHostGetWorkspaceCounter = "host_get_workspace_seconds";
inline constexpr const char* kHostLaunchCounter = "host_launch_seconds";
inline constexpr const char* kLaunchRateCounter = "launches_per_second";
// The benchmark's label: how its time (Google Benchmark's manual time) was taken.
inline constexpr const char* kDeviceTimeFromEvents = "device time: events";
inline constexpr const char* kDeviceTimeFromHost =
    "device time: host wall clock to synchronisation (the provider has no events)";

struct PointBenchmarkOptions {
  // Launches per synchronisation: each iteration queues this many GetWorkspaceSize + execute
  // pairs on the stream, then synchronises once. 1: every launch is synchronised.
  int pipelined = 1;
};

// Registers benchmark `name` (Google Benchmark adds "/manual_time"). Each iteration is
// `pipelined` launches (RepeatableCall) and one synchronisation; its time is the device time of
// those launches, from events recorded on the stream before the first execute call and after the
// last, or, on a provider without events, the host's wall time from the first GetWorkspaceSize to
// the end of the synchronisation. bytes_per_second and items_per_second are over that time,
// beside the host counters above and page faults per iteration.
// Inputs are generated and uploaded when the benchmark first runs, not at registration, and
// dropped when another benchmark starts, so only one point's buffers are alive at a time. A call
// that fails makes the benchmark report an error. `point` and `session` must outlive the run.
void RegisterPointBenchmark(const std::string& name, const TestPoint& point,
                            const DeviceSession& session,
                            const PointBenchmarkOptions& options = {});

// Frees the buffers of the last point that ran; call after the run, while its session lives.
void ReleasePointBenchmarks();

}  // namespace aclnn_check
