// --no-isolate: test points run on threads of this process, one device session each. For
// debugging a provider under gdb; a crash takes the harness down and --timeout is not enforced.
#pragma once

#include <functional>
#include <vector>

#include <nlohmann/json.hpp>

#include "runner/execute.h"
#include "runner/result_sink.h"

namespace aclnn_check {

// Returns false when interrupted (SIGINT/SIGTERM): the points in flight finish, no new ones start.
bool RunInProcess(const Provider& provider, const RunContext& context,
                  const std::vector<const TestPoint*>& points, int jobs,
                  const ResultSink& on_result);

}  // namespace aclnn_check
