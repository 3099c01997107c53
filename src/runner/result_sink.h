// Where the runners (in_process.h, isolation.h) hand each finished point.
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string_view>

namespace aclnn_check {

// A finished point's result (a report test point) and its position among the run's points.
// `line` is the same result as one line of compact JSON when the runner already holds it (an
// isolated worker's frame), so that the journal need not serialize it again; empty otherwise.
using ResultSink = std::function<void(size_t index, nlohmann::json result, std::string_view line)>;

}  // namespace aclnn_check
