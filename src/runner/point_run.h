// One test point as `run` executes it: the call and its checks (execute.h), then, when asked,
// the repeated calls of --repeat (determinism.h) and the failure data of --save-failures
// (failure_archive.h). In-process and isolated runs both call this.
#pragma once

#include "runner/execute.h"

namespace aclnn_check {

TestPointResult RunTestPoint(const TestPoint& point, const DeviceSession& session, const RunContext& context);

}  // namespace aclnn_check
