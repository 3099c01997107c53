// Google Benchmarks that call a test point on a provider: the shared body of `aclnn-check bench`
// (one benchmark per test point) and of bench/aclnn_bench (named workloads at large sizes).
#pragma once

#include <string>

#include "cases/test_point.h"
#include "device_access/device.h"

namespace aclnn_check {

// Registers benchmark `name`: each iteration is one launch (RepeatableCall::Call), credited with
// the point's minimum traffic (TimedLoop: bytes_per_second and items_per_second over real time,
// page faults per iteration).
// Inputs are generated and uploaded when the benchmark first runs, not at registration, and
// dropped when another benchmark starts, so only one point's buffers are alive at a time. A call
// that fails makes the benchmark report an error. `point` and `session` must outlive the run.
void RegisterPointBenchmark(const std::string& name, const TestPoint& point,
                            const DeviceSession& session);

// Frees the buffers of the last point that ran; call after the run, while its session lives.
void ReleasePointBenchmarks();

}  // namespace aclnn_check
